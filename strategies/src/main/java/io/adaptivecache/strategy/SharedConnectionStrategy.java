package io.adaptivecache.strategy;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * SHARED(N): N thread-safe connections used by every caller at once, one picked per call by a
 * {@link ConnectionSelector}. SINGLE is N = 1. Each connection counts the calls in flight on it,
 * which the least-in-flight selector reads and retirement waits on.
 */
final class SharedConnectionStrategy<C> extends AbstractConnectionStrategy<C> {

    private final Entry<C>[] entries;
    private final ConnectionSelector selector;
    private final IntUnaryOperator inFlightOf;

    @SuppressWarnings("unchecked")
    SharedConnectionStrategy(StrategySpec spec, ConnectionFactory<C> factory) {
        super(spec, factory);
        this.selector = spec.selector().newSelector();
        // Opened together, so that the factory can place them apart (on distinct I/O threads for Lettuce).
        List<C> connections = factory.openShared(spec.connections());
        Entry<C>[] opened = new Entry[connections.size()];
        for (int i = 0; i < opened.length; i++) {
            opened[i] = new Entry<>(connections.get(i), this);
        }
        this.entries = opened;
        this.inFlightOf = index -> entries[index].inFlight.get();
    }

    @Override
    public @Nullable ConnectionLease<C> tryAcquire() {
        Entry<C>[] all = entries;
        Entry<C> entry = all.length == 1 ? all[0] : all[selector.select(all.length, inFlightOf)];
        return countIn(entry.inFlight) ? entry : null;
    }

    @Override
    public int inFlight() {
        int total = 0;
        for (Entry<C> entry : entries) {
            total += entry.inFlight.get();
        }
        return total;
    }

    @Override
    public StrategyStats stats() {
        return new StrategyStats(spec, entries.length, inFlight(), 0, 0, 0);
    }

    @Override
    public void close() {
        for (Entry<C> entry : entries) {
            factory.close(entry.connection);
        }
    }

    /** One shared connection, with the calls in flight on it. */
    private static final class Entry<C> extends HeldConnection<C> {

        final AtomicInteger inFlight = new AtomicInteger();
        private final SharedConnectionStrategy<C> owner;

        Entry(C connection, SharedConnectionStrategy<C> owner) {
            super(connection);
            this.owner = owner;
        }

        @Override
        public void release() {
            owner.countOut(inFlight);
        }
    }
}
