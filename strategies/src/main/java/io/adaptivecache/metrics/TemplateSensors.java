package io.adaptivecache.metrics;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.call.Command;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.jspecify.annotations.Nullable;

/**
 * A template's own sensors: caller-observed latency in an HdrHistogram {@link Recorder} (an
 * interval histogram, swapped per window, rather than decaying percentiles) and counters of
 * calls, errors, timeouts and value bytes, all wait-free on the hot path. {@link #sample} closes a window.
 * A further observer (Micrometer) can be attached; it is read once per call from a volatile field.
 */
public final class TemplateSensors implements CallObserver {

    private static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Recorder latency = new Recorder(HIGHEST_TRACKABLE_NANOS, 2);
    /** Every call, rejected ones too, which are no calls served: see {@link #served}. */
    private final OutcomeCounter outcomes = new OutcomeCounter();
    private final LongAdder valueBytes = new LongAdder();
    private volatile CallObserver downstream = CallObserver.NONE;
    private volatile @Nullable NodeSensors nodes;
    private volatile @Nullable StrategySpec live;

    // Window state, touched only by the one thread that samples.
    private @Nullable Histogram recycled;
    private long lastValueBytes;
    private long lastBorrows;
    private long lastBorrowWaitNanos;
    private @Nullable StrategySpec lastStrategy;
    private long lastSampleNanos = Long.MIN_VALUE;

    @Override
    public void onCall(CacheCommand command, CallOutcome outcome, long latencyNanos) {
        this.outcomes.record(outcome);
        if (outcome != CallOutcome.REJECTED) {
            // A rejected call was not attempted: its latency says nothing about the strategy.
            this.latency.recordValue(Math.min(Math.max(latencyNanos, 1), HIGHEST_TRACKABLE_NANOS));
        }
        this.downstream.onCall(command, outcome, latencyNanos);
    }

    @Override
    public <T extends @Nullable Object> void onReply(Command<T> command, T reply) {
        int bytes = command.receivedBytes(reply);
        if (bytes > 0) {
            this.valueBytes.add(bytes);
        }
        this.downstream.onReply(command, reply);
    }

    /**
     * Counts the bytes of one value written or read (a value sent with a write, a value a read
     * found), so that each window knows the mean value size per call. Hot path: wait-free, one
     * {@link LongAdder} add, no allocation.
     * @param bytes the value's length
     */
    public void onValueBytes(int bytes) {
        this.valueBytes.add(bytes);
    }

    /**
     * Sends every call on to another observer too, after those added before (none is replaced):
     * the template's builder adds its own, Micrometer's binder adds the meters.
     * @param observer the observer, such as a Micrometer binder
     */
    public synchronized void addObserver(CallObserver observer) {
        Objects.requireNonNull(observer, "observer");
        if (observer == CallObserver.NONE) {
            return;
        }
        this.downstream = this.downstream == CallObserver.NONE ? observer : CallObserver.both(this.downstream, observer);
    }

    /**
     * Records the template's live strategy, which the template's strategy mechanism tells on every
     * change: what per-call observers tag their figures with, at the price of one volatile read.
     * @param live the live strategy
     */
    public void onStrategy(StrategySpec live) {
        this.live = live;
    }

    /**
     * The template's live strategy.
     * @return the live strategy, or {@code null} before the template started
     */
    public @Nullable StrategySpec liveStrategy() {
        return this.live;
    }

    /**
     * Judges each window by node too: a window in which one node stands out from the others is
     * reported as disturbed (see {@link NodeSensors#closeWindow()}).
     * @param nodes the backend's per-node sensors, or {@code null} for none
     */
    public void judgeNodes(@Nullable NodeSensors nodes) {
        this.nodes = nodes;
    }

    /**
     * Calls completed since the template started.
     * @return the count
     */
    public long totalCalls() {
        return served(this.outcomes.totals());
    }

    /**
     * Failed calls since the template started.
     * @return the count
     */
    public long totalErrors() {
        OutcomeCounter.Tally totals = this.outcomes.totals();
        return totals.failed() - totals.of(CallOutcome.REJECTED);
    }

    /**
     * Calls not attempted (circuit breaker open, bulkhead full) since the template started;
     * they are not in {@link #totalCalls()}.
     * @return the count
     */
    public long totalRejected() {
        return this.outcomes.totals().of(CallOutcome.REJECTED);
    }

    /** Calls served: a rejected call was not attempted, so it is no call of the strategy's. */
    private static long served(OutcomeCounter.Tally counts) {
        return counts.all() - counts.of(CallOutcome.REJECTED);
    }

    /**
     * Closes the current window and opens the next. Call from one thread only.
     * @param nowNanos the end of the window, on the caller's clock
     * @param stats the live strategy's figures now
     * @param expectedWindowNanos the planned window length; a much longer one means the JVM or host paused
     * @return the window's measurements
     */
    public WindowSample sample(long nowNanos, StrategyStats stats, long expectedWindowNanos) {
        Histogram interval = this.latency.getIntervalHistogram(this.recycled);
        this.recycled = interval;
        OutcomeCounter.Tally counts = this.outcomes.closeWindow();
        long totalValueBytes = this.valueBytes.sum();
        boolean first = this.lastSampleNanos == Long.MIN_VALUE;
        long start = first ? nowNanos - expectedWindowNanos : this.lastSampleNanos;
        boolean sameStrategy = stats.spec().equals(this.lastStrategy);
        long borrows = sameStrategy ? stats.borrows() - this.lastBorrows : stats.borrows();
        long borrowWait = sameStrategy ? stats.borrowWaitNanos() - this.lastBorrowWaitNanos : stats.borrowWaitNanos();

        long calls = served(counts);
        long connectionFailures = counts.of(CallOutcome.CONNECTION_FAILURE);
        long rejectedCalls = counts.of(CallOutcome.REJECTED);
        long timeouts = counts.of(CallOutcome.TIMEOUT);
        long sentToServer = calls - counts.of(CallOutcome.POOL_EXHAUSTED);
        NodeSensors nodeSensors = this.nodes;
        String nodeDisturbance = nodeSensors == null ? null : nodeSensors.closeWindow();
        String disturbance = null;
        if (first) {
            disturbance = "first window";
        }
        else if (!sameStrategy) {
            disturbance = "strategy changed from " + this.lastStrategy + " to " + stats.spec();
        }
        else if (connectionFailures > 0) {
            disturbance = connectionFailures + " connection failures";
        }
        else if (stats.openConnections() == 0) {
            // A pool that cannot open a connection makes its callers wait as if it were contended.
            disturbance = "no connection is open (the server is unreachable)";
        }
        else if (rejectedCalls > 0) {
            disturbance = rejectedCalls + " calls rejected by the circuit breaker or bulkhead";
        }
        else if (timeouts > 0 && timeouts * 100 >= sentToServer) {
            // A stalled server is an outage, not a load the strategy should adapt to; calls that
            // never left an exhausted pool do not dilute it.
            disturbance = timeouts + " of " + sentToServer + " calls sent timed out waiting for the server";
        }
        else if (nodeDisturbance != null) {
            // One node's trouble is not the load's: a new strategy would not cure it, and would
            // change the connections of every caller of every other node.
            disturbance = nodeDisturbance;
        }
        else if (nowNanos - start > expectedWindowNanos * 3 / 2) {
            disturbance = "window took " + TimeUnit.NANOSECONDS.toMillis(nowNanos - start) + " ms (pause?)";
        }
        double seconds = Math.max(1e-9, (nowNanos - start) / 1e9);
        double throughput = calls / seconds;
        boolean anyCall = interval.getTotalCount() > 0;
        double mean = anyCall ? interval.getMean() : 0;
        WindowSample sample = new WindowSample(start, nowNanos, stats.spec(), stats.openConnections(), calls,
                counts.failed() - rejectedCalls, timeouts, throughput, mean,
                interval.getValueAtPercentile(50), interval.getValueAtPercentile(99), anyCall ? interval.getMinValue() : 0,
                throughput * mean / 1e9, calls == 0 ? 0 : (double) (totalValueBytes - this.lastValueBytes) / calls, borrows,
                borrows == 0 ? 0 : (double) borrowWait / borrows, stats.waitingBorrowers(), disturbance);

        this.lastValueBytes = totalValueBytes;
        this.lastBorrows = stats.borrows();
        this.lastBorrowWaitNanos = stats.borrowWaitNanos();
        this.lastStrategy = stats.spec();
        this.lastSampleNanos = nowNanos;
        return sample;
    }
}
