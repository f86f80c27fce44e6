package io.adaptivecache.strategy;

import java.util.concurrent.CompletableFuture;

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
}
