package io.adaptivecache.benchmarks.pairs;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PairedRunTests {

    @Test
    void twoTargetsRunInBothOrdersInEveryTwoCycles() {
        List<String> targets = List.of("A", "B");
        for (int cycle = 1; cycle < 40; cycle += 2) {
            List<String> odd = PairedRun.order(targets, cycle);
            List<String> even = PairedRun.order(targets, cycle + 1);
            assertThat(even).containsExactly(odd.get(1), odd.get(0));
        }
    }

    @Test
    void theBootBuiltDefaultGetsASettleLimitOfItsOwnAndTheOthersTheRuns() {
        Duration any = Duration.ofSeconds(1);
        PairedRun.Settings settings = new PairedRun.Settings(Path.of("out"), List.of(1), List.of(100), List.of(), Map.of(), any,
                new ClientTimings(any, any, any, any), any, Duration.ofSeconds(12), Duration.ofSeconds(125), any, any, 1, 1, 1, 0.2, "1g");

        assertThat(settings.settle("boot-default")).isEqualTo(Duration.ofSeconds(125));
        assertThat(settings.settle("ours-adaptive-jedis@io_uring")).isEqualTo(Duration.ofSeconds(12));
    }

    @Test
    void theOrderOfARunCanBeRepeated() {
        List<String> targets = List.of("A", "B", "C", "D");
        assertThat(PairedRun.order(targets, 7)).isEqualTo(PairedRun.order(targets, 7));
    }

    @Test
    void overTheCyclesEveryTargetTakesEveryPlaceAndFollowsEveryOtherTarget() {
        List<String> targets = List.of("A", "B", "C", "D", "E");
        Map<String, Set<Integer>> places = new HashMap<>();
        Set<String> neighbours = new HashSet<>();
        for (int cycle = 1; cycle <= 40; cycle++) {
            List<String> order = PairedRun.order(targets, cycle);
            assertThat(order).containsExactlyInAnyOrderElementsOf(targets);
            for (int i = 0; i < order.size(); i++) {
                places.computeIfAbsent(order.get(i), any -> new HashSet<>()).add(i);
                if (i > 0) {
                    neighbours.add(order.get(i - 1) + order.get(i));
                }
            }
        }
        places.values().forEach(set -> assertThat(set).hasSize(targets.size()));
        assertThat(neighbours).as("each target runs right after each other one at least once").hasSize(targets.size()
                * (targets.size() - 1) / 2 * 2);
    }

    /**
     * The target last in an odd cycle runs again first in the next, two slices back to back, which
     * favours it: that place must fall to every target about as often. With consecutive seeds of
     * {@code java.util.Random} one target took all 40 of them.
     */
    @Test
    void theBackToBackPlaceAtEachPairOfCyclesIsSpreadOverTheTargets() {
        List<String> targets = List.of("A", "B", "C", "D");
        Map<String, Integer> boundaries = new HashMap<>();
        for (int cycle = 1; cycle < 160; cycle += 2) {
            List<String> odd = PairedRun.order(targets, cycle);
            List<String> even = PairedRun.order(targets, cycle + 1);
            assertThat(even.get(0)).isEqualTo(odd.get(targets.size() - 1));
            boundaries.merge(even.get(0), 1, Integer::sum);
        }
        // 80 boundaries over 4 targets: 20 each expected; a fixed target would take all 80.
        assertThat(boundaries).hasSize(targets.size());
        boundaries.values().forEach(count -> assertThat(count).isBetween(8, 32));
    }
}
