package io.adaptivecache.metrics;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.call.CallOutcome;

/**
 * One server node's share of a template's calls: counts and latency, wait-free on the hot path.
 * Created by {@link NodeSensors}; read through {@link NodeSensors#figures()}.
 */
public final class NodeSensor {

    private final String id;
    private final String address;
    private final NodeBreaker breaker;
    private final OutcomeCounter outcomes = new OutcomeCounter();
    private final LongAdder latencyNanos = new LongAdder();
    private final LongAccumulator windowMaxNanos = new LongAccumulator(Math::max, 0);

    // Window state, touched only by the one thread that closes windows.
    private long lastLatencyNanos;
    private int idleWindows;
    private volatile NodeWindow lastWindow = NodeWindow.EMPTY;

    NodeSensor(String id, String address) {
        this(id, address, NodeBreaker.Settings.DISABLED);
    }

    NodeSensor(String id, String address, NodeBreaker.Settings breakerSettings) {
        this.id = id;
        this.address = address;
        this.breaker = new NodeBreaker(address, breakerSettings);
    }

    /**
     * The node's own circuit breaker (closed for good when the sensors were made without one).
     * @return the breaker
     */
    public NodeBreaker breaker() {
        return this.breaker;
    }

    /**
     * Records one call this node served (or failed).
     * @param outcome how it ended
     * @param latencyNanos from sending the command to its completion
     */
    public void record(CallOutcome outcome, long latencyNanos) {
        this.outcomes.record(outcome);
        this.latencyNanos.add(latencyNanos);
        this.windowMaxNanos.accumulate(latencyNanos);
    }

    /**
     * The node's stable identity (a cluster node id, or the address when there is none).
     * @return the id
     */
    public String id() {
        return this.id;
    }

    /**
     * Where the node listens, as {@code host:port}.
     * @return the address
     */
    public String address() {
        return this.address;
    }

    /**
     * Calls since the template started.
     * @return the count
     */
    public long calls() {
        return this.outcomes.totals().all();
    }

    /**
     * Failed calls (timeouts included) since the template started.
     * @return the count
     */
    public long errors() {
        return this.outcomes.totals().failed();
    }

    /**
     * Timed-out calls since the template started.
     * @return the count
     */
    public long timeouts() {
        return this.outcomes.totals().of(CallOutcome.TIMEOUT);
    }

    /**
     * Total latency of all calls since the template started, for a mean or a Micrometer function timer.
     * @return nanoseconds
     */
    public long totalLatencyNanos() {
        return this.latencyNanos.sum();
    }

    NodeWindow closeWindow() {
        OutcomeCounter.Tally counts = this.outcomes.closeWindow();
        long totalLatency = this.latencyNanos.sum();
        long windowCalls = counts.all();
        NodeWindow window = new NodeWindow(windowCalls, counts.failed(),
                windowCalls == 0 ? 0 : (double) (totalLatency - this.lastLatencyNanos) / windowCalls,
                this.windowMaxNanos.getThenReset());
        this.lastLatencyNanos = totalLatency;
        this.idleWindows = windowCalls == 0 ? this.idleWindows + 1 : 0;
        this.lastWindow = window;
        return window;
    }

    int idleWindows() {
        return this.idleWindows;
    }

    NodeFigures figures() {
        OutcomeCounter.Tally totals = this.outcomes.totals();
        long totalCalls = totals.all();
        NodeWindow window = this.lastWindow;
        return new NodeFigures(this.id, this.address, totalCalls, totals.failed(), totals.of(CallOutcome.TIMEOUT),
                totalCalls == 0 ? 0 : (double) totalLatencyNanos() / totalCalls, window.calls(), window.errors(),
                window.meanLatencyNanos(), window.maxLatencyNanos());
    }

    /** One node's figures over one window. */
    record NodeWindow(long calls, long errors, double meanLatencyNanos, long maxLatencyNanos) {

        static final NodeWindow EMPTY = new NodeWindow(0, 0, 0, 0);
    }
}
