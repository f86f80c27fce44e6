package io.adaptivecache.benchmarks.http;

import java.util.List;

import io.adaptivecache.benchmarks.http.app.AppVariant;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HttpGoalTests {

    private static final String SPRING = AppVariant.SPRING_DEFAULTS.id();

    @Test
    void adaptiveDefaultsAreAskedForATenthMoreRequestsAndNoWorseP99At64And256Connections() {
        HttpGoal rate = goal("adaptive", HttpGoal.Measure.REQUESTS_PER_SECOND);
        HttpGoal p99 = goal("adaptive", HttpGoal.Measure.P99);

        assertThat(rate.thresholds()).containsOnlyKeys(64, 256).containsValues(1.1);
        assertThat(rate.goalText(64)).isEqualTo("≥ 1.1");
        assertThat(rate.goalText(16)).isEmpty();
        assertThat(p99.thresholds()).containsOnlyKeys(64, 256).containsValues(1.0);
        assertThat(p99.goalText(256)).isEqualTo("≤ 1.0");
    }

    @Test
    void theNearCacheIsAskedForHalfAgainAsManyRequestsAtEveryCount() {
        HttpGoal rate = goal("adaptive-near", HttpGoal.Measure.REQUESTS_PER_SECOND);

        assertThat(rate.thresholds()).containsOnlyKeys(16, 64, 256).containsValues(1.5);
    }

    @Test
    void everyComparisonHasAnAaControlOnBootsDefaults() {
        assertThat(HttpGoal.all()).filteredOn(HttpGoal::control).extracting(HttpGoal::numerator, HttpGoal::denominator)
                .containsOnly(org.assertj.core.groups.Tuple.tuple(SPRING + "#2", SPRING)).hasSize(2);
    }

    @Test
    void theApplicationsAreEachVariantOnceThenTheTwin() {
        assertThat(HttpGoal.apps(HttpGoal.all())).containsExactly("spring-defaults", "spring-pool", "adaptive", "adaptive-near",
                "spring-defaults#2");
    }

    @Test
    void aSelectionKeepsTheComparisonsWhoseApplicationsItHolds() {
        List<HttpGoal> goals = HttpGoal.among(HttpGoal.all(), List.of("spring-defaults", "adaptive"));

        assertThat(goals).extracting(HttpGoal::label).containsExactly("adaptive ÷ spring-defaults", "adaptive ÷ spring-defaults");
        assertThat(HttpGoal.apps(goals)).containsExactly("spring-defaults", "adaptive");
        assertThat(HttpGoal.among(HttpGoal.all(), List.of())).isEqualTo(HttpGoal.all());
    }

    private static HttpGoal goal(String numerator, HttpGoal.Measure measure) {
        return HttpGoal.all().stream().filter(goal -> goal.numerator().equals(numerator) && goal.denominator().equals(SPRING)
                && goal.measure() == measure).findFirst().orElseThrow();
    }
}
