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
        for (String name : List.of("redis", "memcached", "near", "overhead", "spring-data", "quick")) {
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
        for (String name : List.of("redis", "memcached", "near", "overhead", "spring-data", "quick")) {
            GoalSet set = GoalSet.named(name);
            for (Backend backend : set.backends()) {
                assertThat(set.goals()).as(name).anyMatch(goal -> goal.control() && goal.backend() == backend);
            }
        }
    }

    @Test
    void theBootBuiltDefaultStandsBesideTheHarnessBuiltAdaptiveTemplateWithTheGoalsOfItsOwn() {
        for (String name : List.of("redis", "memcached")) {
            GoalSet set = GoalSet.named(name);
            Backend backend = set.backends().get(0);
            List<Goal> boot = set.goals().stream().filter(goal -> goal.numerator().equals(Targets.BOOT_DEFAULT)).toList();
            assertThat(boot).as(name).hasSize(3);
            Goal fixed = boot.get(0);
            Goal peer = boot.get(1);
            for (int callers : new int[] {1, 8, 50, 200}) {
                assertThat(fixed.threshold(callers)).as("%s: ÷ our best fixed at %d callers", name, callers).isEqualTo(0.97);
                assertThat(peer.threshold(callers)).as("%s: ÷ the best peer at %d callers", name, callers)
                        .isEqualTo(callers >= 50 ? 1.5 : 1.0);
            }
            assertThat(fixed.bestOf()).isEqualTo(backend == Backend.REDIS ? GoalSet.REDIS_FIXED : GoalSet.MEMCACHED_FIXED);
            assertThat(peer.bestOf()).isEqualTo(backend == Backend.REDIS ? PhaseGoals.REDIS_PEERS : PhaseGoals.MEMCACHED_PEERS);
            // Against the harness's own adaptive template on the starter's default driver: for information.
            assertThat(boot.get(2).bestOf()).containsExactly(backend == Backend.REDIS ? "ours-adaptive-jedis@io_uring" : "ours-adaptive");
            assertThat(boot.get(2).thresholds()).isEmpty();
            assertThat(set.targets(backend)).contains(Targets.BOOT_DEFAULT);
        }
        assertThat(GoalSet.named("near").targets(Backend.REDIS)).contains(Targets.BOOT_DEFAULT);
        assertThat(GoalSet.named("quick").targets(Backend.REDIS)).doesNotContain(Targets.BOOT_DEFAULT);
    }

    @Test
    void anUnknownSetIsRefusedNamingTheKnownOnes() {
        assertThatIllegalArgumentException().isThrownBy(() -> GoalSet.named("fast")).withMessageContaining("redis, memcached, near, overhead, spring-data, quick");
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
