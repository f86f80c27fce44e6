package io.adaptivecache.strategy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.adaptivecache.CacheConnectionException;

/** An in-memory {@link ConnectionFactory} that counts what it opens and closes; no I/O. */
class FakeConnections implements ConnectionFactory<FakeConnections.Connection> {

    final List<Connection> opened = new CopyOnWriteArrayList<>();
    final AtomicBoolean failOpens = new AtomicBoolean();
    private final AtomicInteger ids = new AtomicInteger();

    @Override
    public Connection open() {
        if (failOpens.get()) {
            throw new CacheConnectionException("fake server is down");
        }
        Connection connection = new Connection(ids.incrementAndGet());
        opened.add(connection);
        return connection;
    }

    @Override
    public boolean isUsable(Connection connection) {
        return !connection.closed.get();
    }

    @Override
    public void close(Connection connection) {
        if (!connection.closed.compareAndSet(false, true)) {
            throw new AssertionError("closed twice: " + connection);
        }
    }

    @Override
    public String describe() {
        return "fake://memory";
    }

    long openCount() {
        return opened.stream().filter(connection -> !connection.closed.get()).count();
    }

    /** A connection that refuses work once closed, so a call that reached a closed connection is seen. */
    static final class Connection {

        final int id;
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicInteger calls = new AtomicInteger();

        Connection(int id) {
            this.id = id;
        }

        void use() {
            if (closed.get()) {
                throw new IllegalStateException("used after close: " + this);
            }
            calls.incrementAndGet();
        }

        @Override
        public String toString() {
            return "Connection#" + id;
        }
    }
}
