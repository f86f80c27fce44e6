package io.adaptivecache.benchmarks.pairs;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Mix;
import io.adaptivecache.benchmarks.targets.Targets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class GoalSetTests {

    @Test
    void everyTargetOfEveryGoalSetIsInTheCatalogSoThatARunCannotFailHoursIn() {
        Duration any = Duration.ofSeconds(1);
        for (String name : List.of("redis", "memcached", "near", "overhead", "quick")) {
            GoalSet set = GoalSet.named(name);
            for (Backend backend : set.backends()) {
                Set<String> catalog = Targets.all(2, any, any, any, any).stream().filter(target -> target.backend() == backend)
                        .map(target -> target.id()).collect(Collectors.toSet());
                for (String target : set.targets(backend)) {
                    String base = target.replace(GoalSet.TWIN, "").replaceAll("@.*", "");
                    assertThat(catalog).as("%s in goal set %s", target, name).contains(base);
                }
            }
        }
    }

    @Test
    void everyGoalSetHasAnAAControlPerBackend() {
        for (String name : List.of("redis", "memcached", "near", "overhead", "quick")) {
            GoalSet set = GoalSet.named(name);
            for (Backend backend : set.backends()) {
                assertThat(set.goals()).as(name).anyMatch(goal -> goal.control() && goal.backend() == backend);
            }
        }
    }

    @Test
    void anUnknownSetIsRefusedNamingTheKnownOnes() {
        assertThatIllegalArgumentException().isThrownBy(() -> GoalSet.named("fast")).withMessageContaining("redis, memcached, near, overhead, quick");
    }

    @Test
    void theNearSetLoadsReadHeavyZipfKeysAndBoundsTheStalenessOfOurNearCache() {
        GoalSet near = GoalSet.named("near");
        assertThat(near.mix()).isEqualTo(Mix.READ_HEAVY_ZIPF);
        assertThat(near.staleness()).anyMatch(goal -> goal.target().equals("ours-near-adaptive-jedis") && goal.threshold(8) == 10.0
                && goal.threshold(50) == 10.0);
        assertThat(near.targets(Backend.REDIS)).contains("ours-near-adaptive-jedis", "ours-adaptive-jedis", "redisson-local");
        assertThat(GoalSet.named("redis").mix()).isEqualTo(Mix.MIXED_UNIFORM);
    }
}
