package io.adaptivecache.strategy;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts the connections a template has open, across every strategy it has run. */
final class ConnectionCounter<C> implements ConnectionFactory<C> {

    private final ConnectionFactory<C> delegate;
    private final AtomicInteger open = new AtomicInteger();

    ConnectionCounter(ConnectionFactory<C> delegate) {
        this.delegate = delegate;
    }

    int openCount() {
        return open.get();
    }

    @Override
    public C open() {
        C connection = delegate.open();
        open.incrementAndGet();
        return connection;
    }

    @Override
    public C openExclusive() {
        C connection = delegate.openExclusive();
        open.incrementAndGet();
        return connection;
    }

    @Override
    public boolean supportsSharing() {
        return delegate.supportsSharing();
    }

    @Override
    public boolean exclusiveConnectionsBlock() {
        return delegate.exclusiveConnectionsBlock();
    }

    @Override
    public boolean isUsable(C connection) {
        return delegate.isUsable(connection);
    }

    @Override
    public void close(C connection) {
        open.decrementAndGet();
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
