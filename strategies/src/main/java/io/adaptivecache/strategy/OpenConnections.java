package io.adaptivecache.strategy;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the connections a template has open, whichever factory of its strategies opened them:
 * each factory a strategy opens connections from is wrapped by {@link #counting}, and all share
 * this one count.
 */
public final class OpenConnections {

    private final AtomicInteger open = new AtomicInteger();

    /** A count at zero. */
    public OpenConnections() {
    }

    /**
     * Connections open now.
     * @return the count
     */
    public int count() {
        return open.get();
    }

    /**
     * A factory that counts what it opens and closes into this count.
     * @param factory the factory to count
     * @param <N> its connection type
     * @return the counting factory
     */
    public <N> ConnectionFactory<N> counting(ConnectionFactory<N> factory) {
        return new Counting<>(factory, open);
    }

    private record Counting<N>(ConnectionFactory<N> delegate, AtomicInteger count) implements ConnectionFactory<N> {

        @Override
        public N open() {
            N connection = delegate.open();
            count.incrementAndGet();
            return connection;
        }

        @Override
        public List<N> openShared(int connections) {
            List<N> opened = delegate.openShared(connections);
            count.addAndGet(opened.size());
            return opened;
        }

        @Override
        public boolean isUsable(N connection) {
            return delegate.isUsable(connection);
        }

        @Override
        public void close(N connection) {
            count.decrementAndGet();
            delegate.close(connection);
        }

        @Override
        public void checkReachable() {
            delegate.checkReachable();
        }

        @Override
        public String describe() {
            return delegate.describe();
        }
    }
}
