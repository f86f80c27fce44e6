package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static io.adaptivecache.adaptive.Windows.disturbed;
import static io.adaptivecache.adaptive.Windows.pooled;
import static io.adaptivecache.adaptive.Windows.timed;
import static io.adaptivecache.adaptive.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The default policy, driven by scripted windows and explicit times: no threads, no sleeps. */
class ThresholdStrategyPolicyTests {

    private static final StrategySpec SINGLE = StrategySpec.single();
    private static final StrategySpec POOLED = StrategySpec.pooled(new PoolSettings(8, 8, 0, Duration.ofMillis(200)));

    /** Cap 4, 10 s dwell, 5 s trial: otherwise the defaults. */
    private final ThresholdStrategyPolicy.Settings settings = ThresholdStrategyPolicy.Settings.defaults().withMaxConnections(4)
            .withTimings(Duration.ofSeconds(10), Duration.ofSeconds(5));

    private final ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings);

    private long now = 0;

    private static StrategySpec multi(int n) {
        return StrategySpec.multi(n, SelectorType.ROUND_ROBIN);
    }

    /** Feeds the same kind of window once a second until the policy switches (or gives up), applying switches. */
    private Decision runUntilSwitch(java.util.function.LongFunction<WindowSample> windows, int maxWindows) {
        return runUntilSwitch(windows, maxWindows, true);
    }

    /**
     * Feeds the same kind of window once a second until the policy switches (or gives up), and
     * reports the switch back as {@code succeeded} (false: the new strategy could not be opened).
     */
    private Decision runUntilSwitch(java.util.function.LongFunction<WindowSample> windows, int maxWindows, boolean succeeded) {
        return runUntil(windows, maxWindows, succeeded, false);
    }

    /**
     * Feeds the same kind of window once a second, at most {@code maxWindows}, until the policy
     * switches (the switch reported back as {@code succeeded}) or, with {@code orTrialAccepted},
     * keeps the strategy it is trying; the decision that ended it, or null.
     */
    private Decision runUntil(java.util.function.LongFunction<WindowSample> windows, int maxWindows, boolean succeeded,
            boolean orTrialAccepted) {
        for (int i = 0; i < maxWindows; i++) {
            this.now += SECOND;
            Decision decision = this.policy.decide(windows.apply(this.now), this.now);
            if (decision.isSwitch()) {
                this.policy.onSwitch(decision, succeeded, true, this.now);
                return decision;
            }
            if (orTrialAccepted && decision.reason() == DecisionReason.TRIAL_ACCEPTED) {
                return decision;
            }
        }
        return null;
    }

    @Test
    void manyCallersOnOneConnectionShouldGrowNStraightToWhatTheLoadNeedsWithinTheCap() {
        Decision decision = runUntilSwitch(t -> window(t, SINGLE, 50_000, 64), 30);

        assertThat(decision.reason()).isEqualTo(DecisionReason.CONNECTION_SATURATED);
        // Not 2 and then 4: one switch for one change of load.
        assertThat(decision.target()).isEqualTo(multi(4));
        assertThat(decision.evidence()).contains("concurrency 64.0 over 1 connections");
    }

    @Test
    void atTheCapNShouldNotGrowFurther() {
        assertThat(runUntilSwitch(t -> window(t, multi(4), 60_000, 64), 60)).isNull();
    }

    @Test
    void idleConnectionsShouldShrinkStraightToWhatTheLoadNeeds() {
        Decision decision = runUntilSwitch(t -> window(t, multi(4), 5_000, 1), 30);

        assertThat(decision.reason()).isEqualTo(DecisionReason.CONNECTIONS_IDLE);
        assertThat(decision.target()).isEqualTo(SINGLE);
        this.now = 0;
        ThresholdStrategyPolicy fresh = new ThresholdStrategyPolicy(this.settings.withMaxConnections(8));
        Decision half = null;
        for (int i = 0; i < 30 && (half == null || !half.isSwitch()); i++) {
            this.now += SECOND;
            half = fresh.decide(window(this.now, multi(8), 40_000, 3), this.now);
        }
        assertThat(half.target()).as("3 calls in flight on 8 connections: 2 connections keep each under 4").isEqualTo(multi(2));
    }

    @Test
    void moderateLoadShouldStaySteady() {
        assertThat(runUntilSwitch(t -> window(t, multi(2), 40_000, 4), 60)).isNull();
        assertThat(this.policy.decide(window(this.now + SECOND, multi(2), 40_000, 4), this.now + SECOND).reason())
                .isEqualTo(DecisionReason.STEADY);
    }

    @Test
    void poolContentionShouldLeavePooled() {
        Decision decision = runUntilSwitch(t -> pooled(t, POOLED, 20_000, 6, 300_000, 2), 30);

        assertThat(decision.reason()).isEqualTo(DecisionReason.POOL_CONTENTION);
        assertThat(decision.target()).isEqualTo(multi(4));
        assertThat(decision.evidence()).contains("borrow wait");
    }

    @Test
    void aMoveAwayFromAContendedPoolIsNotRolledBackIntoItAndDoublesTheDwell() {
        Decision leave = runUntilSwitch(t -> pooled(t, POOLED, 20_000, 6, 300_000, 2), 30);
        assertThat(leave.reason()).isEqualTo(DecisionReason.POOL_CONTENTION);

        // Shared connections slower than the pool measured: a trial would send the callers back to wait for it.
        List<Decision> after = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            this.now += SECOND;
            after.add(this.policy.decide(window(this.now, multi(4), 10_000, 6), this.now));
        }

        assertThat(after).noneMatch(Decision::isSwitch);
        assertThat(after).extracting(Decision::reason).doesNotContain(DecisionReason.TRIAL, DecisionReason.ROLLBACK);
        assertThat(after.get(0).evidence()).as("the dwell of 10 s doubled").isEqualTo("last change 1 s ago, dwell 20 s");
    }

    @Test
    void pendingBorrowersPilingUpShouldLeavePooled() {
        assertThat(runUntilSwitch(t -> pooled(t, POOLED, 20_000, 6, 10_000, 8), 30).reason())
                .isEqualTo(DecisionReason.POOL_CONTENTION);
    }

    @Test
    void aSaturatedPoolShouldLeavePooled() {
        assertThat(runUntilSwitch(t -> pooled(t, POOLED, 3_000, 7.8, 1_000, 0), 30).reason())
                .isEqualTo(DecisionReason.POOL_SATURATED);
    }

    @Test
    void aComfortablePoolShouldStay() {
        assertThat(runUntilSwitch(t -> pooled(t, POOLED, 20_000, 3, 1_000, 0), 60)).isNull();
    }

    @Test
    void noChangeBeforeTheDwellHasPassed() {
        this.now += SECOND;
        Decision first = this.policy.decide(window(this.now, SINGLE, 50_000, 64), this.now);

        assertThat(first.reason()).isEqualTo(DecisionReason.DWELL);
        assertThat(first.isSwitch()).isFalse();
        Decision later = runUntilSwitch(t -> window(t, SINGLE, 50_000, 64), 30);
        assertThat(later.atNanos()).as("a dwell of 10 s from the first window, the proposal held throughout")
                .isEqualTo(11 * SECOND);
    }

    @Test
    void aConditionMustHoldForConsecutiveWindows() {
        this.now = 20 * SECOND; // past the first dwell
        this.policy.decide(window(this.now, SINGLE, 1_000, 1), 0);
        List<DecisionReason> reasons = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            this.now += SECOND;
            reasons.add(this.policy.decide(window(this.now, SINGLE, 50_000, 64), this.now).reason());
        }
        this.now += SECOND;
        reasons.add(this.policy.decide(window(this.now, SINGLE, 20_000, 2), this.now).reason());
        this.now += SECOND;
        reasons.add(this.policy.decide(window(this.now, SINGLE, 50_000, 64), this.now).reason());

        assertThat(reasons).containsExactly(DecisionReason.CONFIRMING, DecisionReason.CONFIRMING, DecisionReason.STEADY,
                DecisionReason.CONFIRMING);
    }

    @Test
    void disturbedAndThinWindowsShouldCountNeitherForNorAgainst() {
        this.now = 20 * SECOND;
        this.policy.decide(window(this.now, SINGLE, 1_000, 1), 0);
        List<DecisionReason> reasons = new ArrayList<>();
        long[] times = new long[6];
        for (int i = 0; i < 6; i++) {
            this.now += SECOND;
            times[i] = this.now;
        }
        reasons.add(this.policy.decide(window(times[0], SINGLE, 50_000, 64), times[0]).reason());
        reasons.add(this.policy.decide(disturbed(times[1], SINGLE, "strategy changed"), times[1]).reason());
        reasons.add(this.policy.decide(window(times[2], SINGLE, 50, 64), times[2]).reason());
        reasons.add(this.policy.decide(window(times[3], SINGLE, 50_000, 64), times[3]).reason());
        Decision switched = runUntilSwitch(t -> window(t, SINGLE, 50_000, 64), 30);

        assertThat(reasons).containsExactly(DecisionReason.CONFIRMING, DecisionReason.DISTURBED,
                DecisionReason.INSUFFICIENT_DATA, DecisionReason.CONFIRMING);
        assertThat(switched.reason()).isEqualTo(DecisionReason.CONNECTION_SATURATED);
        // The proposal began with the window ending at 21 s: a dwell (10 s) later, neither delayed nor hastened by the two.
        assertThat(switched.atNanos()).isEqualTo(30 * SECOND);
    }

    @Test
    void aWorseTrialShouldRollBackAndDoubleTheDwell() {
        Decision grow = runUntilSwitch(t -> window(t, SINGLE, 50_000, 64), 30);
        long switchedAt = this.now;
        // Same 64 callers, but 30% less throughput on the candidate.
        Decision rollback = runUntilSwitch(t -> window(t, multi(4), 35_000, 64), 10);

        assertThat(rollback.reason()).isEqualTo(DecisionReason.ROLLBACK);
        assertThat(rollback.target()).isEqualTo(grow.current());
        assertThat(rollback.atNanos() - switchedAt).isGreaterThanOrEqualTo(5 * SECOND);
        // The same load does not propose the move again (it lost there); three times the load may, after the doubled dwell.
        Decision again = runUntilSwitch(t -> window(t, SINGLE, 50_000, 192), 60);
        assertThat(again.atNanos() - rollback.atNanos()).as("dwell doubled to 20 s").isGreaterThanOrEqualTo(20 * SECOND);
    }

    @Test
    void aBetterTrialShouldBeAccepted() {
        runUntilSwitch(t -> window(t, SINGLE, 50_000, 64), 30);
        List<DecisionReason> reasons = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            this.now += SECOND;
            reasons.add(this.policy.decide(window(this.now, multi(4), 62_000, 64), this.now).reason());
        }

        assertThat(reasons).startsWith(DecisionReason.TRIAL).contains(DecisionReason.TRIAL_ACCEPTED)
                .doesNotContain(DecisionReason.ROLLBACK);
    }

    /** One caller on four connections, 5,000 calls/s at 200 us: shrinks to SINGLE, whose trial the caller then judges. */
    private Decision shrinkOneCallerToSingle(java.util.function.LongFunction<WindowSample> incumbent) {
        Decision shrink = runUntilSwitch(incumbent, 30);
        assertThat(shrink.reason()).isEqualTo(DecisionReason.CONNECTIONS_IDLE);
        assertThat(shrink.target()).isEqualTo(SINGLE);
        return shrink;
    }

    @Test
    void aBurstySingleCallerWithBetterLatencyShouldKeepTheTrialWhateverItsThroughputDoes() {
        // One caller whose rate moves by 30% from window to window (bursts and pauses), at 200 us a call, and on the
        // candidate 20% faster a call, the rate still jumping by 30% either way.
        Decision verdict = trialVerdictAfterShrinking(t -> timed(t, multi(4), (t / SECOND) % 2 == 0 ? 6_500 : 3_500, 200_000),
                t -> timed(t, SINGLE, (t / SECOND) % 2 == 0 ? 3_500 : 6_500, 160_000));

        assertThat(verdict.reason()).isEqualTo(DecisionReason.TRIAL_ACCEPTED);
        assertThat(verdict.evidence()).contains("160 \u00b5s on SINGLE vs 200 \u00b5s on " + multi(4)).contains("calls/s");
    }

    /** Shrinks one caller from MULTI(4) to SINGLE on {@code before}'s windows, then returns the trial's verdict on {@code trial}'s. */
    private Decision trialVerdictAfterShrinking(java.util.function.LongFunction<WindowSample> before,
            java.util.function.LongFunction<WindowSample> trial) {
        shrinkOneCallerToSingle(before);
        return runUntilSwitchOrVerdict(trial, 10);
    }

    private static void assertRolledBackToMulti4(Decision verdict) {
        assertThat(verdict.reason()).isEqualTo(DecisionReason.ROLLBACK);
        assertThat(verdict.target()).isEqualTo(multi(4));
    }

    @Test
    void aTrialWithLatencyThirtyPercentWorseAtTheSameThroughputShouldRollBack() {
        Decision verdict = trialVerdictAfterShrinking(t -> timed(t, multi(4), 5_000, 200_000), t -> timed(t, SINGLE, 5_000, 260_000));

        assertRolledBackToMulti4(verdict);
        assertThat(verdict.evidence()).contains("260 \u00b5s on SINGLE vs 200 \u00b5s on " + multi(4) + " (limit 235 \u00b5s)")
                .contains("5000 vs 5000 calls/s");
    }

    @Test
    void inAnOpenLoopATrialThatDoublesLatencyAtTheSameThroughputShouldRollBack() {
        // Arrivals set by the service's traffic: 20,000 calls/s whatever the strategy. On MULTI(4) a call takes 50 us,
        // so one call is in flight on average: the connections are idle and the policy shrinks them.
        // SINGLE then serves the same 20,000 calls/s (it has to: they arrive) at twice the latency, two calls in flight.
        // A trial judged on throughput sees no difference, and the doubled concurrency is not a change of load.
        Decision verdict = trialVerdictAfterShrinking(t -> timed(t, multi(4), 20_000, 50_000), t -> timed(t, SINGLE, 20_000, 100_000));

        assertRolledBackToMulti4(verdict);
        assertThat(verdict.evidence()).contains("100 \u00b5s on SINGLE vs 50 \u00b5s on " + multi(4));
    }

    @Test
    void aTrialDuringWhichTheLoadChangedShouldBeKeptWithoutComparison() {
        // On the candidate four times the callers: more in flight and more calls per second, each call slower for the queueing.
        Decision verdict = trialVerdictAfterShrinking(t -> timed(t, multi(4), 5_000, 200_000), t -> timed(t, SINGLE, 12_000, 330_000));

        assertThat(verdict.reason()).isEqualTo(DecisionReason.TRIAL_ACCEPTED);
        assertThat(verdict.evidence()).contains("load changed, kept without comparison");
    }

    /** Feeds windows until a switch (applied) or the end of a trial. */
    private Decision runUntilSwitchOrVerdict(java.util.function.LongFunction<WindowSample> windows, int maxWindows) {
        return runUntil(windows, maxWindows, true, true);
    }

    @Test
    void repeatedRollbacksShouldSuppressChanges() {
        // Three rollbacks, each at a load three times the last (the same load would not try the same move again).
        for (int round = 0; round < 3; round++) {
            double callers = 64 * Math.pow(3, round);
            assertThat(runUntilSwitch(t -> window(t, SINGLE, 50_000, callers), 200).reason())
                    .isEqualTo(DecisionReason.CONNECTION_SATURATED);
            assertThat(runUntilSwitch(t -> window(t, multi(4), 30_000, callers), 20).reason()).isEqualTo(DecisionReason.ROLLBACK);
        }

        this.now += SECOND;
        assertThat(this.policy.decide(window(this.now, SINGLE, 50_000, 64), this.now).reason())
                .isEqualTo(DecisionReason.SUPPRESSED);
        assertThat(this.policy.isSuppressed(this.now)).isTrue();
        assertThat(this.policy.isSuppressed(this.now + Duration.ofHours(1).toNanos())).isFalse();
    }

    @Test
    void aFailedWarmUpShouldBackOff() {
        Decision first = runUntilSwitch(t -> window(t, SINGLE, 50_000, 64), 30, false);
        long failedAt = this.now;
        Decision retry = runUntilSwitch(t -> window(t, SINGLE, 50_000, 64), 60);

        assertThat(first.reason()).isEqualTo(DecisionReason.CONNECTION_SATURATED);
        assertThat(retry.atNanos() - failedAt).as("backed off to twice the dwell").isGreaterThanOrEqualTo(20 * SECOND);
    }

    @Test
    void theBuilderShouldSetEachSettingByNameAndKeepTheOthersAtTheirDefaults() {
        ThresholdStrategyPolicy.Settings defaults = ThresholdStrategyPolicy.Settings.defaults();
        ThresholdStrategyPolicy.BlockingPool blockingPool = new ThresholdStrategyPolicy.BlockingPool(3, Duration.ofMillis(2), 6,
                Duration.ofSeconds(2));
        ThresholdStrategyPolicy policy = ThresholdStrategyPolicy.builder().maxConnections(5).selector(SelectorType.LEAST_IN_FLIGHT)
                .minCallsPerWindow(7).growAbove(6.0).shrinkBelow(0.25).poolWaitRatio(0.75).confirmWindows(4)
                .dwell(Duration.ofSeconds(8)).maxDwell(Duration.ofMinutes(9)).trial(Duration.ofSeconds(10)).trialTolerance(0.2)
                .suppressAfterRollbacks(2).suppression(Duration.ofMinutes(11)).maxSwitchesPerHour(12 + 1).blockingPool(blockingPool)
                .build();

        assertThat(policy.settings()).isEqualTo(new ThresholdStrategyPolicy.Settings(5, SelectorType.LEAST_IN_FLIGHT, 7, 6.0, 0.25,
                0.75, 4, Duration.ofSeconds(8), Duration.ofMinutes(9), Duration.ofSeconds(10), 0.2, 2, Duration.ofMinutes(11), 13));
        assertThat(policy.blockingPool()).isSameAs(blockingPool);
        assertThat(ThresholdStrategyPolicy.builder().settings()).isEqualTo(defaults);
        assertThat(ThresholdStrategyPolicy.builder().build().blockingPool()).isNull();
        assertThat(ThresholdStrategyPolicy.builder(defaults).minCallsPerWindow(9).settings())
                .isEqualTo(defaults.withMinCallsPerWindow(9));
    }

    @Test
    void theBuilderShouldRaiseTheLongestDwellToALongerDwellUnlessItWasSet() {
        Duration longDwell = ThresholdStrategyPolicy.Settings.defaults().maxDwell().plusMinutes(1);
        assertThat(ThresholdStrategyPolicy.builder().dwell(longDwell).settings().maxDwell()).isEqualTo(longDwell);
        assertThatIllegalArgumentException().isThrownBy(() -> ThresholdStrategyPolicy.builder().maxDwell(Duration.ofSeconds(1))
                .dwell(Duration.ofSeconds(2)).settings()).withMessageContaining("maxDwell must be at least dwell");
        assertThatIllegalArgumentException().isThrownBy(() -> ThresholdStrategyPolicy.builder().growAbove(0.1).build())
                .withMessageContaining("shrinkBelow");
    }

    @Test
    void theHourlyBudgetShouldHoldBackFurtherSwitches() {
        ThresholdStrategyPolicy budgetOfOne = ThresholdStrategyPolicy.builder().maxConnections(4).confirmWindows(1)
                .dwell(Duration.ofSeconds(1)).maxDwell(Duration.ofSeconds(1)).trial(Duration.ZERO).maxSwitchesPerHour(1).build();
        long t = 2 * SECOND;
        budgetOfOne.decide(window(t, SINGLE, 1_000, 1), t);
        t += 2 * SECOND;
        Decision grow = budgetOfOne.decide(window(t, SINGLE, 50_000, 64), t);
        budgetOfOne.onSwitch(grow, true, false, t);
        t += 2 * SECOND;
        Decision held = budgetOfOne.decide(window(t, multi(2), 60_000, 64), t);
        long anHourLater = grow.atNanos() + Duration.ofHours(1).toNanos() + SECOND;
        Decision later = budgetOfOne.decide(window(anHourLater, multi(2), 60_000, 64), anHourLater);

        assertThat(grow.reason()).isEqualTo(DecisionReason.CONNECTION_SATURATED);
        assertThat(held.reason()).isEqualTo(DecisionReason.BUDGET_EXHAUSTED);
        assertThat(held.isSwitch()).isFalse();
        assertThat(later.reason()).isEqualTo(DecisionReason.CONNECTION_SATURATED);
        assertThat(later.target()).isEqualTo(multi(4));
    }

    @Test
    void aSquareWaveOfLoadSlowerThanTheDwellGivesAtMostOneSwitchPerPhaseWithTheBudgetOutOfReach() {
        ThresholdStrategyPolicy policy = ThresholdStrategyPolicy.builder().maxConnections(8).maxSwitchesPerHour(1_000).build();
        StrategySpec live = StrategySpec.single();
        int[] switchesPerPhase = new int[30];
        for (long second = 1; second <= 3600; second++) {
            long t = second * SECOND;
            int phase = (int) ((second - 1) / 120);
            boolean busy = phase % 2 == 0; // 2 minutes of 64 callers, 2 minutes of 1
            double concurrency = busy ? 64 : 1;
            // A plausible closed-loop model: each connection adds throughput until the 2 cores saturate.
            double throughput = Math.min(concurrency * 20_000, 30_000 + 15_000 * Math.min(live.connections(), 2));
            Decision decision = policy.decide(window(t, live, throughput, concurrency), t);
            if (decision.isSwitch()) {
                policy.onSwitch(decision, true, true, t);
                live = decision.target();
                switchesPerPhase[phase]++;
            }
        }

        assertThat(java.util.Arrays.stream(switchesPerPhase).max().orElse(0)).as("switches in the busiest 2-minute phase: %s",
                java.util.Arrays.toString(switchesPerPhase)).isLessThanOrEqualTo(1);
        assertThat(java.util.Arrays.stream(switchesPerPhase).sum()).as("it does follow the load").isGreaterThanOrEqualTo(2);
    }
}
