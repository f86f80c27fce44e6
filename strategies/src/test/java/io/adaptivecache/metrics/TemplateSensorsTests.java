package io.adaptivecache.metrics;

import java.time.Duration;

import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Window accounting with explicit times: no clock, no sleeps. */
class TemplateSensorsTests {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();
    private static final StrategySpec POOLED = StrategySpec.pooled(new PoolSettings(4, 4, 0, Duration.ofMillis(200)));

    private final TemplateSensors sensors = new TemplateSensors();

    private static StrategyStats stats(StrategySpec spec, long borrows, long waitNanos, int waiting) {
        return new StrategyStats(spec, 4, 0, waiting, borrows, waitNanos);
    }

    @Test
    void aWindowShouldHoldOnlyItsOwnCallsAndTheirLatencies() {
        this.sensors.sample(SECOND, stats(POOLED, 0, 0, 0), SECOND);
        for (int i = 0; i < 100; i++) {
            this.sensors.onCall(CacheCommand.GET, CallOutcome.SUCCESS, 2_000_000);
        }
        this.sensors.onCall(CacheCommand.SET, CallOutcome.TIMEOUT, 50_000_000);
        this.sensors.onCall(CacheCommand.SET, CallOutcome.SERVER_ERROR, 1_000_000);

        WindowSample window = this.sensors.sample(2 * SECOND, stats(POOLED, 102, 102 * 500_000L, 3), SECOND);

        assertThat(window.calls()).isEqualTo(102);
        assertThat(window.errors()).isEqualTo(2);
        assertThat(window.timeouts()).isEqualTo(1);
        assertThat(window.throughput()).isCloseTo(102, within(0.01));
        assertThat(window.p50LatencyNanos()).isBetween(1_900_000L, 2_100_000L);
        assertThat(window.p99LatencyNanos()).isGreaterThanOrEqualTo(window.p50LatencyNanos());
        assertThat(window.concurrency()).as("Little's law: calls/s x mean latency").isCloseTo(102 * window.meanLatencyNanos() / 1e9,
                within(1e-6));
        assertThat(window.meanBorrowWaitNanos()).isCloseTo(500_000, within(1.0));
        assertThat(window.waitingBorrowers()).isEqualTo(3);
        assertThat(window.disturbed()).isFalse();

        WindowSample quiet = this.sensors.sample(3 * SECOND, stats(POOLED, 102, 102 * 500_000L, 0), SECOND);
        assertThat(quiet.calls()).isZero();
        assertThat(quiet.borrows()).isZero();
    }

    @Test
    void theFirstWindowASwitchConnectionFailuresAndALongPauseShouldDisturbAWindow() {
        assertThat(this.sensors.sample(SECOND, stats(POOLED, 0, 0, 0), SECOND).disturbance()).isEqualTo("first window");

        assertThat(this.sensors.sample(2 * SECOND, stats(StrategySpec.single(), 0, 0, 0), SECOND).disturbance())
                .startsWith("strategy changed");

        this.sensors.onCall(CacheCommand.GET, CallOutcome.CONNECTION_FAILURE, 1_000);
        assertThat(this.sensors.sample(3 * SECOND, stats(StrategySpec.single(), 0, 0, 0), SECOND).disturbance())
                .isEqualTo("1 connection failures");

        assertThat(this.sensors.sample(6 * SECOND, stats(StrategySpec.single(), 0, 0, 0), SECOND).disturbance())
                .contains("pause");
        assertThat(this.sensors.sample(7 * SECOND, stats(StrategySpec.single(), 0, 0, 0), SECOND).disturbed()).isFalse();
    }

    @Test
    void rejectedCallsAndServerTimeoutsShouldMakeAWindowAnOutageButAnExhaustedPoolShouldNot() {
        this.sensors.sample(SECOND, stats(POOLED, 0, 0, 0), SECOND);
        for (int i = 0; i < 100; i++) {
            this.sensors.onCall(CacheCommand.GET, CallOutcome.POOL_EXHAUSTED, 200_000_000);
        }
        WindowSample contended = this.sensors.sample(2 * SECOND, stats(POOLED, 0, 0, 0), SECOND);
        assertThat(contended.disturbed()).as("an exhausted pool is what the switcher must see").isFalse();
        assertThat(contended.errors()).isEqualTo(100);
        assertThat(contended.timeouts()).isZero();

        this.sensors.onCall(CacheCommand.GET, CallOutcome.SUCCESS, 1_000_000);
        this.sensors.onCall(CacheCommand.GET, CallOutcome.REJECTED, 0);
        WindowSample rejected = this.sensors.sample(3 * SECOND, stats(POOLED, 0, 0, 0), SECOND);
        assertThat(rejected.calls()).as("a rejected call was not served").isEqualTo(1);
        assertThat(rejected.disturbance()).isEqualTo("1 calls rejected by the circuit breaker or bulkhead");
        assertThat(this.sensors.totalRejected()).isEqualTo(1);

        for (int i = 0; i < 200; i++) {
            this.sensors.onCall(CacheCommand.GET, i < 3 ? CallOutcome.TIMEOUT : CallOutcome.SUCCESS, 1_000_000);
        }
        assertThat(this.sensors.sample(4 * SECOND, stats(POOLED, 0, 0, 0), SECOND).disturbance())
                .isEqualTo("3 of 200 calls sent timed out waiting for the server");
        this.sensors.onCall(CacheCommand.GET, CallOutcome.TIMEOUT, 300_000_000);
        for (int i = 0; i < 300; i++) {
            this.sensors.onCall(CacheCommand.GET, CallOutcome.POOL_EXHAUSTED, 200_000_000);
        }
        assertThat(this.sensors.sample(4500 * SECOND / 1000, stats(POOLED, 0, 0, 0), SECOND / 2).disturbance())
                .as("a stalled server behind an exhausted pool").isEqualTo("1 of 1 calls sent timed out waiting for the server");
        for (int i = 0; i < 400; i++) {
            this.sensors.onCall(CacheCommand.GET, i < 3 ? CallOutcome.TIMEOUT : CallOutcome.SUCCESS, 1_000_000);
        }
        assertThat(this.sensors.sample(5 * SECOND, stats(POOLED, 0, 0, 0), SECOND / 2).disturbed())
                .as("3 timeouts in 400 calls are under 1%").isFalse();
        for (int i = 0; i < 300; i++) {
            this.sensors.onCall(CacheCommand.GET, CallOutcome.POOL_EXHAUSTED, 200_000_000);
        }
        assertThat(this.sensors.sample(5500 * SECOND / 1000, new StrategyStats(POOLED, 0, 0, 30, 0, 0), SECOND / 2)
                .disturbance()).as("a pool that cannot open a connection is not contended")
                .isEqualTo("no connection is open (the server is unreachable)");
    }

    @Test
    void aWindowShouldKnowItsShortestCallAndItsMeanValueBytesPerCall() {
        this.sensors.sample(SECOND, stats(POOLED, 0, 0, 0), SECOND);
        for (int i = 0; i < 99; i++) {
            this.sensors.onCall(CacheCommand.GET, CallOutcome.SUCCESS, 5_000_000);
            this.sensors.onValueBytes(100 * 1024);
        }
        this.sensors.onCall(CacheCommand.GET, CallOutcome.SUCCESS, 120_000); // one call found the server idle
        this.sensors.onValueBytes(100 * 1024);
        for (int i = 0; i < 100; i++) {
            this.sensors.onCall(CacheCommand.DELETE, CallOutcome.SUCCESS, 5_000_000); // no value
        }

        WindowSample window = this.sensors.sample(2 * SECOND, stats(POOLED, 200, 0, 0), SECOND);

        assertThat(window.minLatencyNanos()).as("the round trip the queue could not hide").isBetween(119_000L, 121_000L);
        assertThat(window.meanValueBytes()).as("100 values of 100 KiB over 200 calls").isCloseTo(50 * 1024, within(1e-6));

        WindowSample quiet = this.sensors.sample(3 * SECOND, stats(POOLED, 200, 0, 0), SECOND);
        assertThat(quiet.minLatencyNanos()).as("no calls").isZero();
        assertThat(quiet.meanValueBytes()).isZero();
    }

    @Test
    void anObserverAddedLaterShouldNotReplaceOneAddedBefore() {
        int[] first = new int[1];
        int[] second = new int[1];
        this.sensors.addObserver((command, outcome, latency) -> first[0]++);
        this.sensors.addObserver((command, outcome, latency) -> second[0]++);

        this.sensors.onCall(CacheCommand.GET, CallOutcome.SUCCESS, 1_000);

        assertThat(first[0]).as("the builder's observer, still told after the meters were added").isEqualTo(1);
        assertThat(second[0]).isEqualTo(1);
    }

    @Test
    void callsShouldReachTheAttachedObserverToo() {
        int[] seen = new int[1];
        this.sensors.addObserver((command, outcome, latency) -> seen[0]++);

        this.sensors.onCall(CacheCommand.GET, CallOutcome.SUCCESS, 1_000);
        this.sensors.onCall(CacheCommand.GET, CallOutcome.SUCCESS, 1_000);

        assertThat(seen[0]).isEqualTo(2);
        assertThat(this.sensors.totalCalls()).isEqualTo(2);
    }
}
