package io.adaptivecache.metrics;

import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/**
 * One window of a template's measurements, the only input of the adaptive policy besides the
 * time. Rates and means are over the window; {@code concurrency} is the offered concurrency by
 * Little's law (throughput x mean latency), steadier than any instant in-flight reading.
 *
 * @param startNanos the window's start, on the switcher's clock
 * @param endNanos its end
 * @param strategy the strategy that served the whole window (the latest one if it changed)
 * @param openConnections connections open at the end
 * @param calls calls completed in the window
 * @param errors calls that failed, timeouts included
 * @param timeouts calls that timed out waiting for the server (not those that found no free pooled connection)
 * @param throughput calls per second
 * @param meanLatencyNanos mean caller-observed latency
 * @param p50LatencyNanos median latency
 * @param p99LatencyNanos 99th percentile latency
 * @param minLatencyNanos the shortest call (0 when there were none): the round trip the load cannot
 *     hide, since queueing only ever adds to it
 * @param concurrency offered concurrency (calls in flight on average)
 * @param meanValueBytes mean bytes of values written or read per call (0 when unknown): calls without a
 *     value (a miss, a delete, a counter) count as calls with none
 * @param borrows POOLED: connections borrowed in the window
 * @param meanBorrowWaitNanos POOLED: mean wait for a connection
 * @param waitingBorrowers POOLED: callers waiting at the end
 * @param disturbance why the window must not count for or against a change ({@code null} if it may)
 */
public record WindowSample(long startNanos, long endNanos, StrategySpec strategy, int openConnections, long calls, long errors,
        long timeouts, double throughput, double meanLatencyNanos, long p50LatencyNanos, long p99LatencyNanos,
        long minLatencyNanos, double concurrency, double meanValueBytes, long borrows, double meanBorrowWaitNanos,
        int waitingBorrowers, @Nullable String disturbance) {

    /**
     * Whether something happened in the window (a switch, connection failures, a long pause) that
     * makes its figures unfit for a decision.
     * @return {@code true} if disturbed
     */
    public boolean disturbed() {
        return this.disturbance != null;
    }

    /**
     * Calls in flight per open connection, on average.
     * @return the load per connection
     */
    public double concurrencyPerConnection() {
        return this.concurrency / Math.max(1, this.openConnections);
    }

    /**
     * The window's length in seconds.
     * @return the length
     */
    public double seconds() {
        return (this.endNanos - this.startNanos) / 1e9;
    }
}
