package io.adaptivecache.benchmarks.pairs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Mix;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The staleness goal: a 99th percentile over every write of the kept slices, not a figure per slice. */
class StalenessVerdictsTests {

    private static final Workload WORKLOAD = new Workload(Backend.REDIS, Network.LOOPBACK, 100, 8, Mix.READ_HEAVY_ZIPF);

    private static final StalenessGoal GOAL = new StalenessGoal("near", Backend.REDIS, Map.of(8, 10.0));

    @Test
    void theP99ShouldPoolTheWritesOfEverySliceRatherThanTakeTheMedianOfEachSlicesP99() {
        // Slice A: 100 writes at 1 ms. Slice B: 98 at 1 ms and 2 at 50 ms, so B's own p99 is 50 ms and the median of the
        // two slices' p99s 25.5 ms; over the 200 writes, the 198th is still 1 ms.
        List<Slice> slices = List.of(slice(1, 100, 1_000, 0, 0), slice(2, 98, 1_000, 2, 50_000));
        Verdicts.StalenessRow row = Verdicts.staleness(GOAL, WORKLOAD, slices, 0.2);
        assertThat(row.p99Millis().median()).isEqualTo(1.0);
        assertThat(row.writes()).isEqualTo(200);
        // The histogram keeps 3 significant digits: 50 ms reads back as up to 50.03 ms.
        assertThat(row.maxMillis()).isCloseTo(50.0, within(0.05));
        assertThat(row.p99Millis().high()).as("resampling B twice puts 4 of 200 writes at 50 ms").isCloseTo(50.0, within(0.05));
        assertThat(row.verdict()).isEqualTo(Verdict.UNDECIDED);
    }

    @Test
    void slicesWellUnderTheBoundShouldMeetItAndSlicesOverItShouldMissIt() {
        List<Slice> fast = new ArrayList<>();
        List<Slice> slow = new ArrayList<>();
        for (int cycle = 1; cycle <= 20; cycle++) {
            fast.add(slice(cycle, 250, 500 + cycle * 50, 3, 4_000));
            slow.add(slice(cycle, 250, 20_000 + cycle * 100, 0, 0));
        }
        assertThat(Verdicts.staleness(GOAL, WORKLOAD, fast, 0.2).verdict()).isEqualTo(Verdict.MET);
        assertThat(Verdicts.staleness(GOAL, WORKLOAD, slow, 0.2).verdict()).isEqualTo(Verdict.MISSED);
    }

    @Test
    void aDisturbedSliceShouldNotCountAndATargetWithoutAProbeShouldHaveNoFigure() {
        List<Slice> slices = new ArrayList<>();
        slices.add(slice(1, 100, 1_000, 0, 0));
        Slice disturbed = slice(2, 100, 90_000, 0, 0);
        slices.add(new Slice(WORKLOAD, 2, 0, "near", 1000, 1000, 0, 10, 100, 1.5, 0, 0, 1, "-", 0, disturbed.staleness()));
        slices.add(new Slice(WORKLOAD, 1, 1, "plain", 1000, 1000, 0, 10, 100, 0, 0, 0, 1, "-", 0));
        Verdicts.StalenessRow row = Verdicts.staleness(GOAL, WORKLOAD, slices, 0.2);
        assertThat(row.maxMillis()).as("the disturbed slice's 90 ms is left out").isEqualTo(1.0);
        assertThat(row.slices()).isEqualTo(2);
        assertThat(row.disturbed()).isEqualTo(1);
        Verdicts.StalenessRow none = Verdicts.staleness(new StalenessGoal("plain", Backend.REDIS, Map.of(8, 10.0)), WORKLOAD, slices,
                0.2);
        assertThat(none.writes()).isZero();
        assertThat(none.verdict()).isEqualTo(Verdict.UNDECIDED);
    }

    /** A slice of "near" with {@code count} writes at {@code micros} and {@code extra} more at {@code extraMicros}. */
    private static Slice slice(int cycle, int count, long micros, int extra, long extraMicros) {
        Histogram histogram = new Histogram(3);
        histogram.recordValueWithCount(micros, count);
        if (extra > 0) {
            histogram.recordValueWithCount(extraMicros, extra);
        }
        return new Slice(WORKLOAD, cycle, 0, "near", 1000, 1000, 0, 10, 100, 0, 0, 0, 1, "-", 0, Staleness.of(histogram));
    }
}
