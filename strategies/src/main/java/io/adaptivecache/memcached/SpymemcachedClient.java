package io.adaptivecache.memcached;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.OperationFactory;
import net.spy.memcached.ops.Operation;

/**
 * A spymemcached client that also sends operations built outside it. spymemcached's own
 * {@code async...} methods wrap every operation in a future with a latch, a listener list and
 * a hand-off to the listener executor, which the templates then bridge to a
 * {@link java.util.concurrent.CompletableFuture}; {@link SpymemcachedCall} is the operation's
 * callback and the caller's future in one object, so the hot commands skip that layer.
 */
final class SpymemcachedClient extends MemcachedClient {

    SpymemcachedClient(ConnectionFactory factory, List<InetSocketAddress> addresses) throws IOException {
        super(factory, addresses);
    }

    /** The factory of this client's protocol (binary or text) operations. */
    OperationFactory operations() {
        return opFact;
    }

    /** The thread that does this client's I/O (spymemcached's connection is that thread). */
    Thread ioThread() {
        return mconn;
    }

    /**
     * Queues an operation on the connection to the server that owns {@code key}, as spymemcached's
     * own methods do: the key is checked, and a client that is shutting down or whose queue is
     * full throws {@link IllegalStateException}.
     */
    void send(String key, Operation operation) {
        mconn.enqueueOperation(key, operation);
    }
}
