package io.adaptivecache.strategy;

/**
 * A snapshot of one strategy's figures.
 *
 * @param spec what the strategy was built from
 * @param openConnections connections open right now
 * @param inFlight calls holding (or waiting for) a connection
 * @param waitingBorrowers POOLED: callers blocked waiting for a free connection; 0 otherwise
 * @param borrows POOLED: connections borrowed since the strategy opened; 0 otherwise
 * @param borrowWaitNanos POOLED: total time callers spent waiting to borrow, in nanoseconds
 */
public record StrategyStats(StrategySpec spec, int openConnections, int inFlight, int waitingBorrowers, long borrows,
        long borrowWaitNanos) {

    /**
     * The figures of a strategy that has not opened yet.
     * @param spec what it will be built from
     * @return all zero
     */
    public static StrategyStats idle(StrategySpec spec) {
        return new StrategyStats(spec, 0, 0, 0, 0, 0);
    }
}
