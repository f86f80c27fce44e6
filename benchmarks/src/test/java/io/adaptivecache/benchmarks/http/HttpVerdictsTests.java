package io.adaptivecache.benchmarks.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.pairs.Interval;
import io.adaptivecache.benchmarks.pairs.Verdict;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HttpVerdictsTests {

    private static final double LIMIT = 0.2;

    private static final HttpGoal FASTER = new HttpGoal("a ÷ b", "a", "b", HttpGoal.Measure.REQUESTS_PER_SECOND,
            Map.of(64, 1.1), false);

    private static final HttpGoal NO_SLOWER = new HttpGoal("a ÷ b", "a", "b", HttpGoal.Measure.P99, Map.of(64, 1.0), false);

    @Test
    void eachCycleIsTheNumeratorOverTheDenominatorOfThatSameCycle() {
        List<HttpSlice> slices = new ArrayList<>();
        for (int cycle = 1; cycle <= 20; cycle++) {
            // The machine's pace drifts from cycle to cycle; within a cycle, a is 1.2x b.
            double pace = 1000 * cycle;
            slices.add(slice(64, cycle, "b", pace, 5000));
            slices.add(slice(64, cycle, "a", 1.2 * pace, 5000));
        }

        HttpVerdicts.Row row = HttpVerdicts.evaluate(FASTER, 64, slices, LIMIT);

        assertThat(row.interval().median()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.interval().low()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.interval().high()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.interval().pairs()).isEqualTo(20);
        assertThat(row.cycles()).isEqualTo(20);
        assertThat(row.verdict()).isEqualTo(Verdict.MET);
    }

    @Test
    void aConnectionCountWithoutAGoalIsReportedWithoutAVerdict() {
        List<HttpSlice> slices = pairs(16, 20, 1.3, 1.0);

        assertThat(HttpVerdicts.evaluate(FASTER, 16, slices, LIMIT).verdict()).isEqualTo(Verdict.NONE);
    }

    @Test
    void aRateBelowItsGoalIsMissed() {
        assertThat(HttpVerdicts.evaluate(FASTER, 64, pairs(64, 20, 1.0, 1.0), LIMIT).verdict()).isEqualTo(Verdict.MISSED);
    }

    @Test
    void aLowerP99IsBetter() {
        // a's p99 is 0.9x b's: met against "≤ 1.0"; 1.1x: missed.
        assertThat(HttpVerdicts.evaluate(NO_SLOWER, 64, pairs(64, 20, 1.0, 0.9), LIMIT).verdict()).isEqualTo(Verdict.MET);
        assertThat(HttpVerdicts.evaluate(NO_SLOWER, 64, pairs(64, 20, 1.0, 1.1), LIMIT).verdict()).isEqualTo(Verdict.MISSED);
        assertThat(HttpVerdicts.evaluate(NO_SLOWER, 64, pairs(64, 20, 1.0, 0.9), LIMIT).interval().median())
                .isCloseTo(0.9, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aCycleWithADisturbedOrFailedSliceIsDropped() {
        List<HttpSlice> slices = new ArrayList<>(pairs(64, 10, 1.2, 1.0));
        // Cycle 11: another process took the machine during b's slice; cycle 12: a's requests failed.
        slices.add(slice(64, 11, "a", 5000, 5000));
        slices.add(new HttpSlice(64, 11, 1, "b", 10_000, 1000, 0, 1, 5000, 50, 0, 1.5, 0, 0, 1, "-", 0));
        slices.add(new HttpSlice(64, 12, 0, "a", 10_000, 5000, 3, 1, 5000, 50, 0, 0, 0, 0, 1, "-", 0));
        slices.add(slice(64, 12, "b", 1000, 5000));

        HttpVerdicts.Row row = HttpVerdicts.evaluate(FASTER, 64, slices, LIMIT);

        assertThat(row.cycles()).isEqualTo(12);
        assertThat(row.disturbed()).isEqualTo(1);
        assertThat(row.interval().pairs()).isEqualTo(10);
        assertThat(row.interval().high()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void anAaControlHasNoVerdictAndHoldsWhenItsIntervalContainsOne() {
        HttpGoal control = new HttpGoal("A/A", "b#2", "b", HttpGoal.Measure.REQUESTS_PER_SECOND, Map.of(), true);
        List<HttpSlice> slices = new ArrayList<>();
        double[] ratios = { 0.97, 1.02, 1.0, 0.99, 1.03, 0.98, 1.01, 1.0 };
        for (int cycle = 1; cycle <= ratios.length; cycle++) {
            slices.add(slice(64, cycle, "b", 1000, 5000));
            slices.add(slice(64, cycle, "b#2", 1000 * ratios[cycle - 1], 5000));
        }

        HttpVerdicts.Row row = HttpVerdicts.evaluate(control, 64, slices, LIMIT);

        assertThat(row.verdict()).isEqualTo(Verdict.NONE);
        assertThat(row.controlHolds()).isTrue();
        assertThat(row.status()).isEqualTo("holds");
        List<HttpSlice> biased = pairs(64, 8, 1.0, 1.0).stream()
                .map(slice -> slice.app().equals("a") ? withApp(slice, "b#2", 1.1) : slice).toList();
        assertThat(HttpVerdicts.evaluate(control, 64, biased, LIMIT).status()).startsWith("FAILS");
    }

    @Test
    void everyComparisonAtEveryConnectionCountGetsARow() {
        List<HttpSlice> slices = new ArrayList<>(pairs(16, 3, 1.0, 1.0));
        slices.addAll(pairs(64, 3, 1.0, 1.0));

        List<HttpVerdicts.Row> rows = HttpVerdicts.evaluate(List.of(FASTER, NO_SLOWER), slices, LIMIT);

        assertThat(rows).extracting(row -> row.goal().measure() + "@" + row.connections())
                .containsExactly("REQUESTS_PER_SECOND@16", "REQUESTS_PER_SECOND@64", "P99@16", "P99@64");
    }

    @Test
    void cyclesRunToTheLeastThenInBatchesWhileAGoalIsUndecidedUpToTheMost() {
        HttpVerdicts.Row decided = row(Verdict.MET, 20);
        HttpVerdicts.Row undecided = row(Verdict.UNDECIDED, 20);
        HttpVerdicts.Row short1 = row(Verdict.NONE, 19);

        assertThat(HttpVerdicts.moreCycles(19, List.of(decided), 20, 40, 5)).as("below the least").isTrue();
        assertThat(HttpVerdicts.moreCycles(20, List.of(decided), 20, 40, 5)).as("all decided").isFalse();
        assertThat(HttpVerdicts.moreCycles(20, List.of(decided, undecided), 20, 40, 5)).as("one undecided").isTrue();
        assertThat(HttpVerdicts.moreCycles(20, List.of(decided, short1), 20, 40, 5)).as("dropped cycles made up for").isTrue();
        assertThat(HttpVerdicts.moreCycles(22, List.of(decided), 20, 40, 5)).as("a batch runs to its end").isTrue();
        assertThat(HttpVerdicts.moreCycles(25, List.of(decided), 20, 40, 5)).as("decided after a batch").isFalse();
        assertThat(HttpVerdicts.moreCycles(40, List.of(undecided), 20, 40, 5)).as("at the most").isFalse();
    }

    private static HttpVerdicts.Row row(Verdict verdict, int kept) {
        return new HttpVerdicts.Row(FASTER, 64, new Interval(1.1, 1.0, 1.2, kept), kept, 0, verdict);
    }

    /** Cycles in which a's requests per second and p99 are the given multiples of b's. */
    private static List<HttpSlice> pairs(int connections, int cycles, double rpsRatio, double p99Ratio) {
        List<HttpSlice> slices = new ArrayList<>();
        for (int cycle = 1; cycle <= cycles; cycle++) {
            slices.add(slice(connections, cycle, "b", 1000, 5000));
            slices.add(slice(connections, cycle, "a", 1000 * rpsRatio, 5000 * p99Ratio));
        }
        return slices;
    }

    private static HttpSlice slice(int connections, int cycle, String app, double rps, double p99) {
        return new HttpSlice(connections, cycle, app.equals("a") ? 0 : 1, app, (long) (rps * 5), rps, 0, p99 / 2, p99, 50, 0, 0.01,
                0, 0.1, 1.8, "-", 0);
    }

    private static HttpSlice withApp(HttpSlice slice, String app, double rpsFactor) {
        return new HttpSlice(slice.connections(), slice.cycle(), slice.position(), app, slice.requests(),
                slice.requestsPerSecond() * rpsFactor, slice.errors(), slice.p50Micros(), slice.p99Micros(),
                slice.appCpuMicrosPerRequest(), slice.loads(), slice.outsideCores(), slice.stealCores(), slice.irqCores(),
                slice.oursCores(), slice.strategy(), slice.switches());
    }
}
