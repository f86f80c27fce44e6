package io.adaptivecache.benchmarks.pairs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SurgeGoalTests {

    private static final PhasePlan SURGE = PhasePlan.surge(Duration.ofSeconds(10), Duration.ofSeconds(8));

    private static final Duration SECOND = Duration.ofSeconds(1);

    private static final SurgeGoal GOAL = new SurgeGoal("boot-default", "ours-multi@io_uring", Duration.ofSeconds(3), 0.9);

    @Test
    void everySecondFromThreeSecondsOnAtLeastNineTenthsOfTheReferenceWithoutAFailureMeetsTheGoal() {
        List<PhaseSlice> sequence = new ArrayList<>();
        for (int cycle = 1; cycle <= 3; cycle++) {
            sequence.add(step(cycle, "boot-default", 0, 0, 9_100, 9_100, 9_500, 10_000, 9_200, 9_300, 9_900, 9_100));
            sequence.add(step(cycle, "ours-multi@io_uring", 0, 0, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000));
        }

        SurgeGoal.Result result = GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2);

        assertThat(result.verdict()).isEqualTo(Verdict.MET);
        assertThat(result.cycles()).hasSize(3).allSatisfy(cycle -> {
            assertThat(cycle.kept()).isTrue();
            assertThat(cycle.windowsJudged()).isEqualTo(7);
            assertThat(cycle.windowsBelow()).isZero();
            assertThat(cycle.worstRatio()).isEqualTo(0.91);
            assertThat(cycle.referenceMedian()).isEqualTo(10_000);
        });
    }

    @Test
    void oneSlowSecondAfterTheFirstThreeInOneCycleOfManyMissesTheGoal() {
        List<PhaseSlice> sequence = new ArrayList<>();
        for (int cycle = 1; cycle <= 4; cycle++) {
            double fourth = cycle == 3 ? 8_900 : 10_000;
            sequence.add(step(cycle, "boot-default", 0, 10_000, 10_000, 10_000, 10_000, 10_000, fourth, 10_000, 10_000, 10_000));
            sequence.add(step(cycle, "ours-multi@io_uring", 0, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000));
        }

        SurgeGoal.Result result = GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2);

        assertThat(result.verdict()).isEqualTo(Verdict.MISSED);
        assertThat(result.cycles().get(2).windowsBelow()).isEqualTo(1);
        assertThat(result.cycles().get(2).worstRatio()).isEqualTo(0.89);
    }

    @Test
    void theFirstThreeSecondsAfterTheStepAreNotJudged() {
        // The callers that the step adds start in the first seconds: a stall there is the step, not the strategy.
        List<PhaseSlice> sequence = List.of(
                step(1, "boot-default", 0, 0, 2_000, 10_000, 10_000, 10_000, 10_000, 10_000),
                step(1, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000));

        SurgeGoal.Result result = GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2);

        assertThat(result.verdict()).isEqualTo(Verdict.MET);
        assertThat(result.cycles().get(0).windowsJudged()).isEqualTo(5);
        assertThat(GOAL.firstWindow(Duration.ofMillis(250))).isEqualTo(12);
        assertThat(GOAL.firstWindow(Duration.ofMillis(400))).as("the first window that starts at or after 3 s").isEqualTo(8);
    }

    @Test
    void aFailedCallMissesTheGoalEvenInACycleLeftOutOfTheRatio() {
        PhaseSlice failing = step(2, "boot-default", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000);
        List<PhaseSlice> sequence = List.of(
                step(1, "boot-default", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000),
                step(1, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000),
                with(failing, 3, 5.0),
                step(2, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000));

        SurgeGoal.Result result = GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2);

        assertThat(result.cycles().get(1).kept()).as("disturbed").isFalse();
        assertThat(result.failedCalls()).isEqualTo(3);
        assertThat(result.verdict()).isEqualTo(Verdict.MISSED);
    }

    @Test
    void eachCycleIsHeldToItsOwnReference() {
        // The machine is twice as fast in cycle 1 as in cycle 2; both targets follow it.
        List<PhaseSlice> sequence = List.of(
                step(1, "boot-default", 20_000, 20_000, 20_000, 20_000, 20_000, 20_000),
                step(1, "ours-multi@io_uring", 20_000, 20_000, 20_000, 20_000, 20_000, 20_000),
                step(2, "boot-default", 9_500, 9_500, 9_500, 9_500, 9_500, 9_500),
                step(2, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000));

        SurgeGoal.Result result = GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2);

        assertThat(result.cycles()).extracting(SurgeGoal.Cycle::referenceMedian).containsExactly(20_000.0, 10_000.0);
        assertThat(result.verdict()).isEqualTo(Verdict.MET);
    }

    @Test
    void withoutAKeptCycleTheGoalIsUndecided() {
        List<PhaseSlice> sequence = List.of(
                with(step(1, "boot-default", 10_000, 10_000, 10_000, 10_000, 10_000), 0, 5.0),
                step(1, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000),
                step(2, "boot-default", 10_000, 10_000, 10_000, 10_000, 10_000));

        SurgeGoal.Result result = GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2);

        assertThat(result.cycles()).extracting(SurgeGoal.Cycle::kept).containsExactly(false, false);
        assertThat(result.verdict()).isEqualTo(Verdict.UNDECIDED);
    }

    @Test
    void onlyThePhaseAfterTheStepIsJudged() {
        List<PhaseSlice> sequence = new ArrayList<>();
        sequence.add(step(1, "boot-default", 10_000, 10_000, 10_000, 10_000, 10_000));
        sequence.add(step(1, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000));
        // Before the step the target runs at half the reference's rate: that is the other phase's business.
        sequence.add(phase(0, 1, "boot-default", 5_000, 5_000, 5_000, 5_000, 5_000));
        sequence.add(phase(0, 1, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000));

        assertThat(GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2).verdict()).isEqualTo(Verdict.MET);
    }

    @Test
    void theReferencesOwnShortWindowsAreCountedForReadingButDoNotDecideTheVerdict() {
        // The fixed reference dips below 0.9x of its own median twice (the machine); the target never does.
        List<PhaseSlice> sequence = List.of(
                step(1, "boot-default", 0, 0, 0, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000),
                step(1, "ours-multi@io_uring", 0, 0, 0, 10_000, 8_000, 10_000, 12_000, 7_000, 10_000));

        SurgeGoal.Result result = GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2);

        assertThat(result.cycles().get(0).windowsBelow()).isZero();
        assertThat(result.cycles().get(0).referenceWindowsBelow()).isEqualTo(2);
        assertThat(result.verdict()).isEqualTo(Verdict.MET);
        assertThat(PhaseReport.surgeTable(SURGE, result, SECOND)).contains("| 1 | POOLED(20) | 10.0k | 1.00 | 0 of 6 | 2 | 0 |");
    }

    @Test
    void theReportGivesEachCycleWhatTheTargetRanAtTheStepItsSlowestSecondAndTheVerdict() {
        List<PhaseSlice> sequence = List.of(
                step(1, "boot-default", 10_000, 10_000, 10_000, 10_000, 8_000, 10_000),
                step(1, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000),
                with(step(2, "boot-default", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000), 0, 5.0),
                step(2, "ours-multi@io_uring", 10_000, 10_000, 10_000, 10_000, 10_000, 10_000));

        String table = PhaseReport.surgeTable(SURGE, GOAL.evaluate(SURGE.step(), sequence, SECOND, 0.2), SECOND);

        assertThat(table).contains("from 3 s after the step to 200 callers", "at least 0.90x the median window of ours-multi@io_uring",
                "| 1 | POOLED(20) | 10.0k | 0.80 | 1 of 3 | 0 | 0 |", "| 2 | POOLED(20) | – | left out | – | – | 0 |",
                "Surge goal on 1 kept cycles of 2, 0 failed calls: **missed**");
    }

    private static PhaseSlice step(int cycle, String target, double... rates) {
        return phase(SURGE.step(), cycle, target, rates);
    }

    private static PhaseSlice phase(int index, int cycle, String target, double... rates) {
        String[] strategies = new String[rates.length];
        Arrays.fill(strategies, target.startsWith("boot") ? "POOLED(20)" : "-");
        return new PhaseSlice(Backend.REDIS, "surge", index, SURGE.phases().get(index).workload(Backend.REDIS, false), cycle, 0, target,
                Arrays.stream(rates).average().orElse(0), rates[rates.length - 1], 0, 10, 0, strategies[0], List.of(), rates,
                strategies, 0, 0, "");
    }

    /** The same phase with failed calls and outside CPU. */
    private static PhaseSlice with(PhaseSlice slice, long errors, double outsideCores) {
        return new PhaseSlice(slice.backend(), slice.plan(), slice.phaseIndex(), slice.workload(), slice.cycle(), slice.position(),
                slice.target(), slice.wholeOpsPerSecond(), slice.settledOpsPerSecond(), errors, slice.cpuMicrosPerCall(), slice.gcShare(),
                slice.strategy(), slice.switches(), slice.rates(), slice.strategies(), outsideCores, 0, "");
    }
}
