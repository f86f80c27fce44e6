package io.adaptivecache.benchmarks.pairs;

import java.awt.image.BufferedImage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.LoadedClient;
import io.adaptivecache.benchmarks.load.PhaseLoad;
import io.adaptivecache.benchmarks.targets.Targets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PhaseRunTests {

    private static final PhasePlan CALLERS = PhasePlan.named("callers");

    private static final Duration BOUND = Duration.ofMillis(2500);

    @Test
    void everyTargetOfAPhaseRunIsInTheCatalogSoThatARunCannotFailAnHourIn() {
        Duration any = Duration.ofSeconds(1);
        for (Backend backend : List.of(Backend.REDIS, Backend.MEMCACHED)) {
            List<String> catalog = Targets.all(2, any, any, any, any).stream().filter(target -> target.backend() == backend)
                    .map(target -> target.id()).toList();
            assertThat(PhaseGoals.targets(backend)).isNotEmpty().allSatisfy(target -> assertThat(catalog)
                    .as("%s on %s", target, backend).contains(target.replaceAll("@.*", "")));
            assertThat(PhaseGoals.targets(backend)).containsAll(PhaseGoals.adaptive(backend));
        }
    }

    @Test
    void whatTheWorkerWritesIsWhatTheParentReads() {
        Instant start = Instant.parse("2026-11-24T10:00:00Z");
        PhaseLoad.PhaseFigures figures = new PhaseLoad.PhaseFigures(start, 12_345, 20_575.4, 31_000.5, 2, 17.25, 0.125, "POOLED(20)",
                new double[] {10_000, 30_000, 32_000}, new String[] {"MULTI(2)", "POOLED(20)", "POOLED(20)"},
                List.of(new LoadedClient.Switch(start.plusMillis(1_480), "POOLED(20)", "BLOCKING_FITS")), "Timeout: after 5 s");
        String reply = SliceWorker.phaseReply(figures);
        String[] words = reply.split(" ");
        String[] answer = new String[words.length - 1];
        System.arraycopy(words, 1, answer, 0, answer.length);

        PhaseSlice slice = PhaseSlice.parse(Backend.REDIS, CALLERS, 2, 3, 1, "ours-adaptive-jedis@io_uring", answer,
                HostLoad.Share.UNKNOWN);

        assertThat(words[0]).isEqualTo("phase");
        assertThat(slice.wholeOpsPerSecond()).isEqualTo(20_575.4);
        assertThat(slice.settledOpsPerSecond()).isEqualTo(31_000.5);
        assertThat(slice.errors()).isEqualTo(2);
        assertThat(slice.cpuMicrosPerCall()).isEqualTo(17.25);
        assertThat(slice.gcShare()).isEqualTo(0.125);
        assertThat(slice.strategy()).isEqualTo("POOLED(20)");
        assertThat(slice.rates()).containsExactly(10_000, 30_000, 32_000);
        assertThat(slice.strategies()).containsExactly("MULTI(2)", "POOLED(20)", "POOLED(20)");
        assertThat(slice.switches()).containsExactly(new PhaseSlice.Switch(1_480, "POOLED(20)", "BLOCKING_FITS"));
        assertThat(slice.lastSwitchMillis()).isEqualTo(1_480);
        assertThat(slice.firstError()).isEqualTo("Timeout:_after_5_s");
        // The phase's own load, not the first phase's.
        assertThat(slice.workload().threads()).isEqualTo(50);
    }

    @Test
    void aSecondSwitchInAPhaseMissesTheOneSwitchGoalEvenInOneCycleOfMany() {
        List<PhaseSlice> phases = new ArrayList<>();
        for (int cycle = 1; cycle <= 5; cycle++) {
            phases.add(phase(cycle, "ours", 1_000, 1_000, cycle == 4 ? new long[] {800, 2_000} : new long[] {800}));
        }
        PhaseReport.Settled settled = PhaseReport.Settled.of(phases, BOUND);
        assertThat(settled.atMostOneSwitch()).isFalse();
        assertThat(settled.inTime()).isTrue();

        phases.set(3, phase(4, "ours", 1_000, 1_000, new long[] {800}));
        assertThat(PhaseReport.Settled.of(phases, BOUND).atMostOneSwitch()).isTrue();
    }

    @Test
    void aSwitchAfterTheDwellAndFiveWindowsMissesTheSettlingGoal() {
        List<PhaseSlice> phases = List.of(phase(1, "ours", 1_000, 1_000, new long[] {1_200}),
                phase(2, "ours", 1_000, 1_000, new long[] {2_501}));
        PhaseReport.Settled settled = PhaseReport.Settled.of(phases, BOUND);
        assertThat(settled.inTime()).isFalse();
        assertThat(settled.latestMillis()).isEqualTo(2_501);
        assertThat(PhaseReport.Settled.of(List.of(phases.get(0)), BOUND).inTime()).isTrue();
        assertThat(PhaseReport.Settled.of(List.of(phase(1, "ours", 1_000, 1_000, new long[0])), BOUND).inTime()).isTrue();
    }

    @Test
    void settledAndWholeFiguresAreJudgedSeparately() {
        // Adaptive takes half the phase to settle (0.8x of the fixed strategy over the whole phase) and then matches it.
        List<Slice> settled = new ArrayList<>();
        List<Slice> whole = new ArrayList<>();
        for (int cycle = 1; cycle <= 8; cycle++) {
            double level = cycle % 2 == 0 ? 20_000 : 40_000;
            PhaseSlice ours = phase(cycle, "ours-adaptive-jedis@io_uring", level, level * 0.8, new long[] {1_000});
            PhaseSlice fixed = phase(cycle, "ours-multi@io_uring", level, level, new long[0]);
            settled.add(ours.asSlice(true));
            settled.add(fixed.asSlice(true));
            whole.add(ours.asSlice(false));
            whole.add(fixed.asSlice(false));
        }
        Goal settledGoal = PhaseGoals.settled(Backend.REDIS).get(0);
        Goal wholeGoal = PhaseGoals.whole(Backend.REDIS).get(0);
        PhasePlan.Phase phase = CALLERS.phases().get(2);
        assertThat(Verdicts.evaluate(settledGoal, phase.workload(Backend.REDIS, false), settled, 0.2).verdict()).isEqualTo(Verdict.MET);
        assertThat(Verdicts.evaluate(wholeGoal, phase.workload(Backend.REDIS, false), whole, 0.2).verdict()).isEqualTo(Verdict.MISSED);
    }

    @Test
    void theTimelineHasAPanelPerTargetAndAStrategyStripForTheAdaptiveOne() {
        List<PhaseSlice> slices = new ArrayList<>();
        for (int index = 0; index < CALLERS.phases().size(); index++) {
            for (int cycle = 1; cycle <= 2; cycle++) {
                slices.add(new PhaseSlice(Backend.REDIS, "callers", index, CALLERS.phases().get(index).workload(Backend.REDIS, false),
                        cycle, 0, "ours-adaptive-jedis@io_uring", 1_000, 1_000, 0, 10, 0, "MULTI(2)",
                        List.of(new PhaseSlice.Switch(500, "MULTI(2)", "CONNECTION_SATURATED")), new double[] {500, 1_000, 1_500},
                        new String[] {"POOLED(20)", "MULTI(2)", "MULTI(2)"}, 0, 0, ""));
                slices.add(new PhaseSlice(Backend.REDIS, "callers", index, CALLERS.phases().get(index).workload(Backend.REDIS, false),
                        cycle, 1, "jedis-pool-8", 1_000, 1_000, 0, 10, 0, "-", List.of(), new double[] {900, 900, 900},
                        new String[] {"-", "-", "-"}, 0, 0, ""));
            }
        }
        BufferedImage one = PhaseCharts.render("t", CALLERS, slices, List.of("ours-adaptive-jedis@io_uring", "jedis-pool-8"),
                Duration.ofMillis(250), 0.2);
        BufferedImage three = PhaseCharts.render("t", CALLERS, slices, List.of("ours-adaptive-jedis@io_uring", "jedis-pool-8",
                "jedis-pool-50"), Duration.ofMillis(250), 0.2);
        // Targets without slices get no panel: two panels fill one row either way.
        assertThat(three.getHeight()).isEqualTo(one.getHeight());
        assertThat(one.getWidth()).isGreaterThanOrEqualTo(1000);
    }

    private static PhaseSlice phase(int cycle, String target, double settled, double whole, long[] switchesAt) {
        List<PhaseSlice.Switch> switches = new ArrayList<>();
        for (long at : switchesAt) {
            switches.add(new PhaseSlice.Switch(at, "MULTI(2)", "CONNECTION_SATURATED"));
        }
        return new PhaseSlice(Backend.REDIS, "callers", 2, CALLERS.phases().get(2).workload(Backend.REDIS, false), cycle, 0, target,
                whole, settled, 0, 10, 0, "MULTI(2)", switches, new double[] {whole}, new String[] {"MULTI(2)"}, 0, 0, "");
    }
}
