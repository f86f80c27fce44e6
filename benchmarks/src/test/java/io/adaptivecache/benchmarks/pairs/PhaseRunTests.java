package io.adaptivecache.benchmarks.pairs;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.LoadedClient;
import io.adaptivecache.benchmarks.load.PhaseLoad;
import io.adaptivecache.benchmarks.targets.BootDefaults;
import io.adaptivecache.benchmarks.targets.Targets;
import io.adaptivecache.redis.RedisTransport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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
            assertThat(PhaseGoals.targets(backend, PhasePlan.named("surge"))).allSatisfy(target -> assertThat(catalog)
                    .as("%s on %s", target, backend).contains(target.replaceAll("@.*", "")));
        }
    }

    @Test
    void theBootBuiltDefaultRunsBesideTheHarnessBuiltAdaptiveTemplateInEverySequenceButTheSurge() {
        assertThat(PhaseGoals.targets(Backend.REDIS, CALLERS)).startsWith("ours-adaptive-jedis@io_uring", "boot-default");
        assertThat(PhaseGoals.targets(Backend.MEMCACHED, PhasePlan.named("size"))).startsWith("ours-adaptive", "ours-x-adaptive",
                "boot-default");
        assertThat(PhaseGoals.adaptive(Backend.REDIS)).containsExactly("ours-adaptive-jedis@io_uring", "boot-default");
        // A surge holds the Boot-built default to the fixed MULTI(N) it starts on, and runs nothing else.
        assertThat(PhaseGoals.targets(Backend.REDIS, PhasePlan.named("surge"))).containsExactly("boot-default", "ours-multi@io_uring");
        assertThat(PhaseGoals.targets(Backend.MEMCACHED, PhasePlan.named("surge"))).containsExactly("boot-default", "ours-multi");
    }

    @Test
    void theBootBuiltDefaultIsHeldToItsOwnGoalsAfterSettlingInEveryPhase() {
        for (Backend backend : List.of(Backend.REDIS, Backend.MEMCACHED)) {
            List<Goal> boot = PhaseGoals.settled(backend).stream().filter(goal -> goal.numerator().equals("boot-default")).toList();
            assertThat(boot).extracting(Goal::panel).containsExactly(PhaseGoals.BOOT_SETTLED_FIXED, PhaseGoals.BOOT_SETTLED_PEER);
            Goal fixed = boot.get(0);
            Goal peer = boot.get(1);
            for (int callers : new int[] {1, 4, 8, 50, 200}) {
                assertThat(fixed.threshold(callers)).as("over our best fixed at %d callers", callers).isEqualTo(0.97);
                assertThat(peer.threshold(callers)).as("over the best peer at %d callers", callers).isEqualTo(callers >= 50 ? 1.5 : 1.0);
            }
            assertThat(fixed.bestOf()).doesNotContain("boot-default").allSatisfy(target -> assertThat(target).startsWith("ours-"));
            assertThat(peer.bestOf()).containsExactlyElementsOf(backend == Backend.REDIS ? PhaseGoals.REDIS_PEERS
                    : PhaseGoals.MEMCACHED_PEERS);
            assertThat(PhaseGoals.whole(backend)).noneMatch(goal -> goal.numerator().equals("boot-default"));
        }
    }

    @Test
    void theSurgeStepsFromEightToTwoHundredCallersOnLengthsOfItsOwnAndWindowsOfTheProductionLength() {
        PhasePlan surge = PhasePlan.named(List.of("callers", "surge"), Duration.ofSeconds(80), Duration.ofSeconds(70)).get(1);
        Duration run = Duration.ofSeconds(6);

        assertThat(surge.phases()).extracting(PhasePlan.Phase::callers).containsExactly(8, 200);
        assertThat(surge.length(0, run)).isEqualTo(Duration.ofSeconds(80));
        assertThat(surge.length(1, run)).isEqualTo(Duration.ofSeconds(70));
        assertThat(surge.window(Duration.ofMillis(250))).isEqualTo(BootDefaults.read().window());
        assertThat(surge.surge()).isTrue();
        assertThat(surge.step()).isEqualTo(1);
        assertThat(PhasePlan.named("surge").length(0, run)).isEqualTo(PhasePlan.SURGE_SETTLE);
        // The other sequences keep the run's length and window.
        assertThat(CALLERS.length(3, run)).isEqualTo(run);
        assertThat(CALLERS.window(Duration.ofMillis(250))).isEqualTo(Duration.ofMillis(250));
        assertThat(CALLERS.surge()).isFalse();
        assertThatIllegalArgumentException().isThrownBy(() -> PhasePlan.surge(Duration.ofSeconds(80), Duration.ofMillis(500)))
                .withMessageContaining("at least one window");
    }

    @Test
    void theBootBuiltDefaultSettlesByItsOwnTimingsAndTakesTheTransportTheStarterPicks() {
        PhaseRun.Settings settings = new PhaseRun.Settings(Path.of("out"), List.of(Backend.REDIS), List.of(CALLERS), Map.of(),
                new ClientTimings(Duration.ofSeconds(5), Duration.ofMillis(250), Duration.ofMillis(1250), Duration.ofMillis(1250)),
                Duration.ofSeconds(6), 1, 0.2, "1g");

        assertThat(settings.settleBound("ours-adaptive-jedis@io_uring")).isEqualTo(BOUND);
        assertThat(settings.settleBound("boot-default")).isEqualTo(BootDefaults.read().settleBound());
        assertThat(WorkerProcess.transport("boot-default")).isEqualTo(RedisTransport.AUTO);
        assertThat(WorkerProcess.transport("ours-multi")).isEqualTo(RedisTransport.NIO);
        assertThat(WorkerProcess.transport("ours-multi@io_uring")).isEqualTo(RedisTransport.IO_URING);
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

    @Test
    void eachPhaseOfTheTimelineTakesAsManyWindowsAsItsLongestSlice() {
        PhasePlan surge = PhasePlan.surge(Duration.ofSeconds(6), Duration.ofSeconds(4));
        List<PhaseSlice> slices = new ArrayList<>();
        for (String target : List.of("boot-default", "ours-multi@io_uring")) {
            for (int index = 0; index < 2; index++) {
                int windows = index == 0 ? 6 : 4;
                double[] rates = new double[windows];
                String[] strategies = new String[windows];
                java.util.Arrays.fill(rates, 1_000);
                java.util.Arrays.fill(strategies, target.equals("boot-default") ? "MULTI(2)" : "-");
                slices.add(new PhaseSlice(Backend.REDIS, "surge", index, surge.phases().get(index).workload(Backend.REDIS, false), 1, 0,
                        target, 1_000, 1_000, 0, 10, 0, strategies[0], List.of(), rates, strategies, 0, 0, ""));
            }
        }

        assertThat(PhaseCharts.offsets(2, slices)).containsExactly(0, 6, 10);
        assertThat(PhaseCharts.offsets(CALLERS.phases().size(), List.of())).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(PhaseCharts.render("t", surge, slices, List.of("boot-default", "ours-multi@io_uring"), Duration.ofSeconds(1), 0.2)
                .getWidth()).isGreaterThanOrEqualTo(1000);
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
