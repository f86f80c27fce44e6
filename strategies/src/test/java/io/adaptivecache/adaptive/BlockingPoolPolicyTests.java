package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static io.adaptivecache.adaptive.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The default policy with blocking POOLED connections on offer (a Jedis-pooled Redis template):
 * few callers on a short round trip move to the blocking pool, many callers move back to shared
 * connections, the same rules against flapping apply, and a backend without such connections
 * never gets the proposal. Scripted windows, explicit times.
 */
class BlockingPoolPolicyTests {

    private static final StrategySpec MULTI = StrategySpec.multi(2, SelectorType.ROUND_ROBIN);
    private static final StrategySpec BLOCKING = StrategySpec.pooled(new PoolSettings(20, 20, 0, Duration.ofSeconds(1)));

    private final ThresholdStrategyPolicy.Settings settings = ThresholdStrategyPolicy.Settings.defaults().withMaxConnections(2)
            .withTimings(Duration.ofSeconds(10), Duration.ofSeconds(5));

    private long now;

    private Decision runUntilSwitch(ThresholdStrategyPolicy policy, LongFunction<WindowSample> windows, int maxWindows) {
        for (int i = 0; i < maxWindows; i++) {
            this.now += SECOND;
            Decision decision = policy.decide(windows.apply(this.now), this.now);
            if (decision.isSwitch()) {
                policy.onSwitch(decision, true, true, this.now);
                return decision;
            }
        }
        return null;
    }

    @Test
    void fewCallersOnAShortRoundTripShouldMoveToTheBlockingPool() {
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings, ThresholdStrategyPolicy.BlockingPool.DEFAULTS);

        // 2 callers at 20k calls/s: a mean of 0.1 ms.
        Decision decision = runUntilSwitch(policy, t -> window(t, MULTI, 20_000, 2), 30);

        assertThat(decision.reason()).isEqualTo(DecisionReason.BLOCKING_FITS);
        assertThat(decision.target()).isEqualTo(BLOCKING);
        assertThat(decision.evidence()).contains("concurrency 2.0").contains("mean 0.10 ms");
        assertThat(this.now).as("after the dwell and three confirming windows").isGreaterThanOrEqualTo(10 * SECOND);
    }

    @Test
    void aLongRoundTripOrManyCallersShouldStayShared() {
        ThresholdStrategyPolicy longTrip = new ThresholdStrategyPolicy(this.settings, ThresholdStrategyPolicy.BlockingPool.DEFAULTS);
        // 2 callers at 1k calls/s: a mean of 2 ms, as across a network.
        assertThat(runUntilSwitch(longTrip, t -> window(t, MULTI, 1_000, 2), 40)).isNull();

        ThresholdStrategyPolicy busy = new ThresholdStrategyPolicy(this.settings, ThresholdStrategyPolicy.BlockingPool.DEFAULTS);
        // 16 callers on 2 connections at 60k calls/s: short trips, but more than a blocking pool should take.
        assertThat(runUntilSwitch(busy, t -> window(t, MULTI, 60_000, 16), 40)).isNull();
    }

    @Test
    void withoutBlockingConnectionsTheProposalShouldNeverCome() {
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings);

        Decision decision = runUntilSwitch(policy, t -> window(t, MULTI, 20_000, 1.5), 40);

        assertThat(decision == null || decision.target().type() != StrategyType.POOLED).isTrue();
    }

    @Test
    void aBlockingPoolThatDoesWorseShouldBeRolledBack() {
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings, ThresholdStrategyPolicy.BlockingPool.DEFAULTS);
        runUntilSwitch(policy, t -> window(t, MULTI, 20_000, 2), 30);

        Decision rollback = runUntilSwitch(policy, t -> window(t, BLOCKING, 12_000, 2), 10);

        assertThat(rollback.reason()).isEqualTo(DecisionReason.ROLLBACK);
        assertThat(rollback.target()).isEqualTo(MULTI);
    }

    @Test
    void loadGrowingOnTheBlockingPoolShouldGoBackToSharedConnections() {
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings, ThresholdStrategyPolicy.BlockingPool.DEFAULTS);
        runUntilSwitch(policy, t -> window(t, MULTI, 20_000, 2), 30);
        assertThat(runUntilSwitch(policy, t -> window(t, BLOCKING, 30_000, 2), 6)).as("the trial accepts the pool").isNull();

        // 20 callers on a pool of 20: saturated.
        Decision decision = runUntilSwitch(policy, t -> window(t, BLOCKING, 50_000, 20), 40);

        assertThat(decision.reason()).isEqualTo(DecisionReason.POOL_SATURATED);
        assertThat(decision.target()).isEqualTo(MULTI);
    }

    private static final double KIB = FlappingPolicyTests.KIB;

    /** Callers at a value size on loopback or behind 1 ms each way (the flapping tests' model). */
    private static LongFunction<WindowSample> large(StrategySpec live, int callers, double valueBytes, boolean delayed) {
        return t -> FlappingPolicyTests.largeValueModel(t, live, callers, valueBytes, delayed);
    }

    /** Runs windows without stopping at switches, applying them; returns every decision. */
    private List<Decision> run(ThresholdStrategyPolicy policy, LongFunction<WindowSample> windows, int count) {
        List<Decision> decisions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            this.now += SECOND;
            Decision decision = policy.decide(windows.apply(this.now), this.now);
            if (decision.isSwitch()) {
                policy.onSwitch(decision, true, true, this.now);
            }
            decisions.add(decision);
        }
        return decisions;
    }

    @Test
    void largeValuesOnLoopbackShouldMoveFiftyCallersToTheBlockingPoolOnceAndStayThere() {
        // A cap of 8: without the rule for large values, 25 calls per connection would grow MULTI(2) first.
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings.withMaxConnections(8),
                FlappingPolicyTests.LARGE_VALUE_POOL);

        Decision decision = runUntilSwitch(policy, large(MULTI, 50, 100 * KIB, false), 30);

        assertThat(decision.reason()).isEqualTo(DecisionReason.LARGE_VALUES);
        assertThat(decision.target()).isEqualTo(BLOCKING);
        assertThat(decision.evidence()).contains("concurrency 50.0").contains("values of 100.0 KiB per call (large from 16.0 KiB)")
                .contains("shortest call 40 \u00b5s (a short round trip up to 500 \u00b5s)");
        assertThat(this.now).as("after the dwell and three confirming windows").isGreaterThanOrEqualTo(10 * SECOND);

        // 30 callers wait for the pool's 20 connections, longer than they use one: contention, were the values small.
        List<Decision> after = run(policy, large(BLOCKING, 50, 100 * KIB, false), 600);

        assertThat(after).noneMatch(Decision::isSwitch);
        assertThat(after).extracting(Decision::reason).contains(DecisionReason.TRIAL_ACCEPTED);
        assertThat(after.get(after.size() - 1).reason()).isEqualTo(DecisionReason.STEADY);
        assertThat(after.get(after.size() - 1).evidence()).contains("30 waiting").contains("still large from 8.0 KiB")
                .contains("bandwidth-bound");
    }

    @Test
    void largeValuesOnALongRoundTripShouldNotMoveToTheBlockingPool() {
        for (int callers : new int[] {1, 8, 50, 200}) {
            ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings, FlappingPolicyTests.LARGE_VALUE_POOL);
            // The shortest call takes 2.1 ms: 1 ms of delay each way.
            List<Decision> decisions = run(policy, large(MULTI, callers, 100 * KIB, true), 120);

            assertThat(decisions).as("%d callers", callers).noneMatch(Decision::isSwitch);
        }
    }

    @Test
    void valuesHoveringBetweenNineAndSeventeenKibOnThePoolShouldNotSwitchBack() {
        for (int run : new int[] {1, 3, 7}) {
            ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings, FlappingPolicyTests.LARGE_VALUE_POOL);
            assertThat(runUntilSwitch(policy, large(MULTI, 50, 100 * KIB, false), 30).target()).isEqualTo(BLOCKING);

            List<Decision> decisions = run(policy, t -> FlappingPolicyTests.largeValueModel(t, BLOCKING, 50,
                    ((t / SECOND) / run) % 2 == 0 ? 9 * KIB : 17 * KIB, false), 600);

            assertThat(decisions).as("values changing every %d windows", run).noneMatch(Decision::isSwitch);
            assertThat(decisions).extracting(Decision::reason).as("never even a proposal")
                    .doesNotContain(DecisionReason.CONFIRMING, DecisionReason.POOL_CONTENTION, DecisionReason.POOL_SATURATED);
        }
    }

    @Test
    void valuesTurningSmallOnThePoolShouldGoBackToMultiAsSoonAsThreeWindowsAgree() {
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings, FlappingPolicyTests.LARGE_VALUE_POOL);
        runUntilSwitch(policy, large(MULTI, 50, 100 * KIB, false), 30);
        assertThat(run(policy, large(BLOCKING, 50, 100 * KIB, false), 30)).noneMatch(Decision::isSwitch);
        long smallFrom = this.now;

        // 100-byte values: 30 callers waiting for the pool's 20 connections are contention again, which is trouble.
        Decision decision = runUntilSwitch(policy,
                t -> Windows.withValues(FlappingPolicyTests.model(t, BLOCKING, 50), 100, FlappingPolicyTests.LOOPBACK_TRIP), 60);

        assertThat(decision.reason()).isEqualTo(DecisionReason.POOL_CONTENTION);
        assertThat(decision.target()).isEqualTo(MULTI);
        assertThat(decision.atNanos() - smallFrom).as("three windows of small values, not the dwell").isEqualTo(3 * SECOND);
    }

    @Test
    void byDefaultLargeValuesShouldNotMoveToTheBlockingPool() {
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings.withMaxConnections(8),
                ThresholdStrategyPolicy.BlockingPool.DEFAULTS);
        List<Decision> decisions = run(policy, large(MULTI, 50, 100 * KIB, false), 120);
        assertThat(decisions).extracting(Decision::reason).doesNotContain(DecisionReason.LARGE_VALUES);
        assertThat(decisions).filteredOn(Decision::isSwitch).extracting(Decision::target).doesNotContain(BLOCKING);
    }

    @Test
    void withoutBlockingConnectionsLargeValuesShouldChangeNothing() {
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(this.settings);
        assertThat(runUntilSwitch(policy, large(MULTI, 50, 100 * KIB, false), 120)).isNull();

        // A Lettuce pool with callers queueing for it is left, whatever the values.
        StrategySpec lettucePool = StrategySpec.pooled(new PoolSettings(8, 8, 0, Duration.ofMillis(200)));
        Decision decision = runUntilSwitch(new ThresholdStrategyPolicy(this.settings), large(lettucePool, 50, 100 * KIB, false), 30);
        assertThat(decision.reason()).isEqualTo(DecisionReason.POOL_CONTENTION);
    }

    @Test
    void largeValueSettingsShouldBeChecked() {
        assertThat(ThresholdStrategyPolicy.BlockingPool.DEFAULTS.largeValueBytes()).as("off by default").isEqualTo(Long.MAX_VALUE);
        assertThat(ThresholdStrategyPolicy.BlockingPool.DEFAULTS.maxRoundTrip()).isEqualTo(Duration.ofNanos(500_000));
        assertThatThrownBy(() -> new ThresholdStrategyPolicy.BlockingPool(10, Duration.ofMillis(1), 20, Duration.ofSeconds(1), 1,
                Duration.ofNanos(500_000))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("largeValueBytes (1)");
        assertThatThrownBy(() -> new ThresholdStrategyPolicy.BlockingPool(10, Duration.ofMillis(1), 20, Duration.ofSeconds(1), 16_384,
                Duration.ZERO)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxRoundTrip");
    }

    @Test
    void aBlockingPoolSizedTooCloseToItsThresholdShouldBeRefused() {
        assertThatThrownBy(() -> new ThresholdStrategyPolicy.BlockingPool(4, Duration.ofMillis(1), 6, Duration.ofMillis(200)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("60% of poolSize");
    }
}
