package io.adaptivecache.strategy;

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
        Entry<C>[] opened = new Entry[spec.connections()];
        try {
            for (int i = 0; i < opened.length; i++) {
                opened[i] = new Entry<>(factory.open(), this);
            }
        }
        catch (RuntimeException ex) {
            for (Entry<C> entry : opened) {
                if (entry != null) {
                    factory.close(entry.connection);
                }
            }
            throw ex;
        }
        this.entries = opened;
        this.inFlightOf = index -> entries[index].inFlight.get();
    }

    @Override
    public @Nullable ConnectionLease<C> tryAcquire() {
        Entry<C>[] all = entries;
        Entry<C> entry = all.length == 1 ? all[0] : all[selector.select(all.length, inFlightOf)];
        entry.inFlight.incrementAndGet();
        if (isRetired()) {
            entry.release();
            return null;
        }
        return entry;
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

    /** One shared connection; the same object is the lease for every call on it, so leasing allocates nothing. */
    private static final class Entry<C> implements ConnectionLease<C> {

        final C connection;
        final AtomicInteger inFlight = new AtomicInteger();
        private final SharedConnectionStrategy<C> owner;

        Entry(C connection, SharedConnectionStrategy<C> owner) {
            this.connection = connection;
            this.owner = owner;
        }

        @Override
        public C connection() {
            return connection;
        }

        @Override
        public void release() {
            inFlight.decrementAndGet();
            if (owner.isRetired()) {
                owner.completeIfDrained();
            }
        }
    }
}
