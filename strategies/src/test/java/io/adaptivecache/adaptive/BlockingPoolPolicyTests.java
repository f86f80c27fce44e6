package io.adaptivecache.adaptive;

import java.time.Duration;
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

    @Test
    void aBlockingPoolSizedTooCloseToItsThresholdShouldBeRefused() {
        assertThatThrownBy(() -> new ThresholdStrategyPolicy.BlockingPool(4, Duration.ofMillis(1), 6, Duration.ofMillis(200)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("60% of poolSize");
    }
}
