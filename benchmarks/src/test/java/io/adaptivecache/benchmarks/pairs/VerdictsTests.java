package io.adaptivecache.benchmarks.pairs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VerdictsTests {

    private static final Workload WORKLOAD = new Workload(Backend.REDIS, Network.LOOPBACK, 100, 8);

    private static final double LIMIT = 0.2;

    @Test
    void theBestDenominatorIsTheOneWithTheBestMedianComparedCycleByCycle() {
        Goal goal = throughput("a", List.of("b", "c"), 0.95);
        List<Slice> slices = new ArrayList<>();
        // The load drifts by 10x between cycles; c is 1.25x b throughout and a is 0.9x c.
        for (int cycle = 1; cycle <= 20; cycle++) {
            double level = cycle % 2 == 0 ? 1_000 : 10_000;
            slices.add(slice(cycle, "a", level * 0.9 * 1.25, 0));
            slices.add(slice(cycle, "b", level, 0));
            slices.add(slice(cycle, "c", level * 1.25, 0));
        }
        Verdicts.Row row = Verdicts.evaluate(goal, WORKLOAD, slices, LIMIT);
        assertThat(row.denominator()).isEqualTo("c");
        assertThat(row.interval().median()).isCloseTo(0.9, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(row.interval().high()).isCloseTo(0.9, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(row.verdict()).isEqualTo(Verdict.MISSED);
        assertThat(row.interval().pairs()).isEqualTo(20);
    }

    @Test
    void twoIdenticalPeersDoNotBeatAThirdIdenticalOneByTheLuckOfEachCycle() {
        Goal goal = throughput("a", List.of("b", "c"), 0.95);
        List<Slice> slices = new ArrayList<>();
        // Three identical clients; b and c take turns being 10% lucky. The best of each cycle would always be the lucky one.
        for (int cycle = 1; cycle <= 20; cycle++) {
            boolean bLucky = cycle % 2 == 0;
            slices.add(slice(cycle, "a", cycle % 4 < 2 ? 1_100 : 900, 0));
            slices.add(slice(cycle, "b", bLucky ? 1_100 : 900, 0));
            slices.add(slice(cycle, "c", bLucky ? 900 : 1_100, 0));
        }
        Verdicts.Row row = Verdicts.evaluate(goal, WORKLOAD, slices, LIMIT);
        assertThat(row.interval().contains(1.0)).as("%s", row.interval().format()).isTrue();
    }

    @Test
    void aCycleWithADisturbedSliceOfTheComparisonIsDroppedAndCounted() {
        Goal goal = throughput("a", List.of("b"), 0.95);
        List<Slice> slices = new ArrayList<>();
        for (int cycle = 1; cycle <= 10; cycle++) {
            boolean disturbed = cycle <= 3;
            // A disturbed cycle would drag the ratio down if it were kept.
            slices.add(slice(cycle, "a", disturbed ? 100 : 1_000, disturbed ? 0.5 : 0.05));
            slices.add(slice(cycle, "b", 1_000, 0));
            slices.add(slice(cycle, "unrelated", 1_000, cycle == 5 ? 1.5 : 0));
        }
        Verdicts.Row row = Verdicts.evaluate(goal, WORKLOAD, slices, LIMIT);
        assertThat(row.cycles()).isEqualTo(10);
        assertThat(row.disturbed()).isEqualTo(3);
        assertThat(row.interval().pairs()).as("a disturbed slice of another target does not drop the pair").isEqualTo(7);
        assertThat(row.interval().median()).isEqualTo(1.0);
        assertThat(row.verdict()).isEqualTo(Verdict.MET);
    }

    @Test
    void aCycleInWhichATargetFailedCallsIsNotCompared() {
        Goal goal = throughput("a", List.of("b"), 0.95);
        List<Slice> slices = new ArrayList<>();
        for (int cycle = 1; cycle <= 5; cycle++) {
            slices.add(new Slice(WORKLOAD, cycle, 0, "a", 1000, 3_000, cycle == 1 ? 5 : 0, 10, 100, 0, 0, 0, 1, "-", 0));
            slices.add(slice(cycle, "b", 1_000, 0));
        }
        assertThat(Verdicts.evaluate(goal, WORKLOAD, slices, LIMIT).interval().pairs()).isEqualTo(4);
    }

    @Test
    void anAAControlHoldsWhenItsIntervalContainsOneAndFailsWhenTheInstrumentIsBiased() {
        Goal control = new Goal("A/A", "A/A", Backend.REDIS, "x#2", List.of("x"), Goal.Measure.THROUGHPUT, Map.of(), true);
        List<Slice> fair = new ArrayList<>();
        List<Slice> biased = new ArrayList<>();
        for (int cycle = 1; cycle <= 20; cycle++) {
            double noise = 1 + ((cycle * 7) % 5 - 2) * 0.02;
            fair.add(slice(cycle, "x", 1_000, 0));
            fair.add(slice(cycle, "x#2", 1_000 * noise, 0));
            // An instrument that favours whichever runs second, say, shows up as a ratio away from 1.
            biased.add(slice(cycle, "x", 1_000, 0));
            biased.add(slice(cycle, "x#2", 1_100 * noise, 0));
        }
        Verdicts.Row holds = Verdicts.evaluate(control, WORKLOAD, fair, LIMIT);
        Verdicts.Row fails = Verdicts.evaluate(control, WORKLOAD, biased, LIMIT);
        assertThat(holds.controlHolds()).isTrue();
        assertThat(holds.status()).isEqualTo("holds");
        assertThat(fails.controlHolds()).isFalse();
        assertThat(fails.status()).startsWith("FAILS");
        assertThat(holds.verdict()).isEqualTo(Verdict.NONE);
    }

    @Test
    void cpuPerCallComparesTheNumeratorWithTheLeanestDenominator() {
        Goal goal = new Goal("cpu", "cpu", Backend.REDIS, "a", List.of("b"), Goal.Measure.CPU_PER_CALL, Map.of(8, 1.05), false);
        List<Slice> slices = new ArrayList<>();
        for (int cycle = 1; cycle <= 10; cycle++) {
            slices.add(new Slice(WORKLOAD, cycle, 0, "a", 1000, 1000, 0, 12, 100, 0, 0, 0, 1, "-", 0));
            slices.add(new Slice(WORKLOAD, cycle, 1, "b", 1000, 1000, 0, 10, 100, 0, 0, 0, 1, "-", 0));
        }
        Verdicts.Row row = Verdicts.evaluate(goal, WORKLOAD, slices, LIMIT);
        assertThat(row.interval().median()).isEqualTo(1.2);
        assertThat(row.verdict()).as("20% more CPU per call misses a 5% overhead goal").isEqualTo(Verdict.MISSED);
    }

    private static Goal throughput(String numerator, List<String> bestOf, double threshold) {
        return new Goal(numerator, "panel", Backend.REDIS, numerator, bestOf, Goal.Measure.THROUGHPUT, Map.of(8, threshold), false);
    }

    private static Slice slice(int cycle, String target, double opsPerSecond, double outsideCores) {
        return new Slice(WORKLOAD, cycle, 0, target, 1000, opsPerSecond, 0, 10, 100, outsideCores, 0, 0, 1, "-", 0);
    }
}
