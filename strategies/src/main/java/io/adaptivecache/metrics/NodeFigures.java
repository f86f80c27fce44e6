package io.adaptivecache.metrics;

/**
 * One server node's figures: totals since the template started, and the last closed window
 * (the adaptive switcher's window; all zero when no switcher samples the template).
 *
 * @param id the node's stable identity (a cluster node id, or its address)
 * @param address where the node listens, as {@code host:port}
 * @param calls calls since the template started
 * @param errors failed calls since the template started, timeouts included
 * @param timeouts timed-out calls since the template started
 * @param meanLatencyNanos mean latency since the template started
 * @param windowCalls calls in the last window
 * @param windowErrors failed calls in the last window
 * @param windowMeanLatencyNanos mean latency in the last window
 * @param windowMaxLatencyNanos slowest call in the last window
 */
public record NodeFigures(String id, String address, long calls, long errors, long timeouts, double meanLatencyNanos,
        long windowCalls, long windowErrors, double windowMeanLatencyNanos, long windowMaxLatencyNanos) {
}
