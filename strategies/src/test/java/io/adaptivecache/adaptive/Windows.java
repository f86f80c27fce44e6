package io.adaptivecache.adaptive;

import java.time.Duration;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.StrategySpec;

/** Synthetic one-second windows for policy tests. */
final class Windows {

    static final long SECOND = Duration.ofSeconds(1).toNanos();

    private Windows() {
    }

    /** A closed-loop window: {@code concurrency} busy callers at {@code throughput} calls/s. */
    static WindowSample window(long endNanos, StrategySpec strategy, double throughput, double concurrency) {
        return pooled(endNanos, strategy, throughput, concurrency, 0, 0);
    }

    /**
     * A window given by its rate and mean latency: calls in flight follow by Little's law. In an
     * open loop (arrivals set by the traffic) a slower strategy shows the same throughput with more
     * calls in flight; a bursty caller shows a rate that moves while the latency does not.
     */
    static WindowSample timed(long endNanos, StrategySpec strategy, double throughput, double meanLatencyNanos) {
        return window(endNanos, strategy, throughput, throughput * meanLatencyNanos / 1e9);
    }

    static WindowSample pooled(long endNanos, StrategySpec strategy, double throughput, double concurrency,
            double meanBorrowWaitNanos, int waitingBorrowers) {
        double meanLatency = concurrency / throughput * 1e9;
        return new WindowSample(endNanos - SECOND, endNanos, strategy, strategy.connections(), (long) throughput, 0, 0,
                throughput, meanLatency, (long) meanLatency, (long) (meanLatency * 3), (long) (meanLatency / 4), concurrency, 0,
                (long) throughput, meanBorrowWaitNanos, waitingBorrowers, null);
    }

    /** The same window with values of {@code meanValueBytes} per call and a shortest call of {@code minLatencyNanos}. */
    static WindowSample withValues(WindowSample window, double meanValueBytes, long minLatencyNanos) {
        return new WindowSample(window.startNanos(), window.endNanos(), window.strategy(), window.openConnections(), window.calls(),
                window.errors(), window.timeouts(), window.throughput(), window.meanLatencyNanos(), window.p50LatencyNanos(),
                window.p99LatencyNanos(), minLatencyNanos, window.concurrency(), meanValueBytes, window.borrows(),
                window.meanBorrowWaitNanos(), window.waitingBorrowers(), window.disturbance());
    }

    static WindowSample disturbed(long endNanos, StrategySpec strategy, String why) {
        return new WindowSample(endNanos - SECOND, endNanos, strategy, strategy.connections(), 5000, 0, 0, 5000, 1e6, 1_000_000,
                3_000_000, 250_000, 5, 0, 0, 0, 0, why);
    }
}
