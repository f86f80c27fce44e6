package io.adaptivecache.strategy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Retirement shared by the strategies. The protocol is a Dekker-style handshake on two
 * volatile/atomic writes: a caller increments its in-flight counter and then reads
 * {@code retired}; {@link #retire()} writes {@code retired} and then reads the counters. So
 * either the caller sees the retirement (and backs off without touching the connection), or
 * the retiring thread sees the caller's count (and waits for its release).
 */
abstract class AbstractConnectionStrategy<C> implements ConnectionStrategy<C> {

    protected final StrategySpec spec;
    protected final ConnectionFactory<C> factory;
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile boolean retired;

    AbstractConnectionStrategy(StrategySpec spec, ConnectionFactory<C> factory) {
        this.spec = spec;
        this.factory = factory;
    }

    @Override
    public final StrategySpec spec() {
        return spec;
    }

    final boolean isRetired() {
        return retired;
    }

    /**
     * The caller's half of the handshake: counts a call in, then reads {@code retired}.
     * @param counter the in-flight counter of the connection, or of the strategy, the call is to use
     * @return {@code false} if the strategy was retired, the call then counted out again and to go
     *     to the strategy that replaced this one
     */
    final boolean countIn(AtomicInteger counter) {
        counter.incrementAndGet();
        if (retired) {
            countOut(counter);
            return false;
        }
        return true;
    }

    /**
     * Counts a call out again, and completes a retirement that waited for it; the volatile read
     * first spares a live strategy summing its counters on every release.
     * @param counter the counter {@link #countIn} counted the call in
     */
    final void countOut(AtomicInteger counter) {
        counter.decrementAndGet();
        if (retired) {
            completeIfDrained();
        }
    }

    @Override
    public final CompletableFuture<Void> retire() {
        retired = true;
        completeIfDrained();
        return drained;
    }

    /** Called after each release once retired; cheap enough since N is small. */
    final void completeIfDrained() {
        if (retired && !drained.isDone() && inFlight() == 0) {
            drained.complete(null);
        }
    }

    @Override
    public String toString() {
        return spec + (retired ? " (retired)" : "");
    }

    /**
     * A connection that is its own lease for every call on it, so that leasing allocates nothing.
     * @param <C> the native connection type
     */
    abstract static class HeldConnection<C> implements ConnectionLease<C> {

        final C connection;

        HeldConnection(C connection) {
            this.connection = connection;
        }

        @Override
        public final C connection() {
            return connection;
        }
    }
}
