package io.adaptivecache.strategy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.adaptivecache.CacheConnectionException;

/**
 * An in-memory {@link ConnectionFactory} that counts what it opens and closes, and refuses opens
 * when a test says so; no I/O. Closing a connection twice fails, so that a strategy that does is seen.
 */
public class FakeConnections implements ConnectionFactory<FakeConnections.Connection> {

    /** Every connection opened, in order, closed ones included. */
    public final List<Connection> opened = new CopyOnWriteArrayList<>();
    /** Set to refuse every open, as a server that is down does. */
    public final AtomicBoolean failOpens = new AtomicBoolean();
    /** Opens that still succeed before every further one is refused, as a server at its client limit does; negative: no limit. */
    public final AtomicInteger opensLeft = new AtomicInteger(-1);
    /** The threads that closed connections, in order. */
    public final List<Thread> closingThreads = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();

    @Override
    public Connection open() {
        if (failOpens.get()) {
            throw new CacheConnectionException("fake server is down", null);
        }
        if (opensLeft.get() >= 0 && opensLeft.getAndDecrement() <= 0) {
            throw new CacheConnectionException("fake server: max number of clients reached", null);
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
        closingThreads.add(Thread.currentThread());
    }

    @Override
    public String describe() {
        return "fake://memory";
    }

    /** The connections opened and not closed yet. */
    public long openCount() {
        return opened.stream().filter(connection -> !connection.closed.get()).count();
    }

    /** A connection that refuses work once closed, so a call that reached a closed connection is seen. */
    public static final class Connection {

        final int id;
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicInteger calls = new AtomicInteger();

        Connection(int id) {
            this.id = id;
        }

        /** Counts a call on this connection; fails if it is closed. */
        public void use() {
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
