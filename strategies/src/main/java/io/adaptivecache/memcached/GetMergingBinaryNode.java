package io.adaptivecache.memcached;

import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Collections;

import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.ops.GetOperation;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.protocol.ProxyCallback;
import net.spy.memcached.protocol.binary.BinaryMemcachedNodeImpl;
import net.spy.memcached.protocol.binary.MultiGetOperationImpl;

/**
 * spymemcached's binary-protocol connection to one server, sending the gets that wait in its
 * write queue as one request: each key a quiet get ({@code GETQ}, which the server answers only on
 * a hit) and one {@code NOOP} that ends them, as XMemcached does and as spymemcached's text
 * protocol does on its own. A key several callers wait for is asked once.
 *
 * <p>spymemcached's binary node merges stores as well when asked to merge ({@code shouldOptimize}),
 * and its merged store cannot take a refusal: on the first quiet store the server refuses (an
 * {@code add} of a key that exists) it completes and leaves the rest of its replies to the next
 * request in line, whose reply then does not match it ({@code Unexpected response command value})
 * and the connection's I/O thread stops. Here only gets are merged; everything else is written as
 * it was queued, in order.
 *
 * <p>What a merged get changes for its callers: a miss completes as a success without a value
 * (a single get completes as "not found"; both read as {@code null}), and an error the server
 * returns for one key (none but "not found" happens on plain memcached) is logged and read as a
 * miss.
 */
final class GetMergingBinaryNode extends BinaryMemcachedNodeImpl {

    /** spymemcached's own bound on the keys of one merged get. */
    private static final int MAX_KEYS = 4096;

    /**
     * Creates the node with the arguments spymemcached's own factory gives a binary node.
     * @param factory the factory the node reads its settings from (the builder's)
     * @param address the server
     * @param channel the socket
     * @param bufferSize the read and write buffer size
     * @param authenticate whether the node waits for SASL authentication before writing
     */
    GetMergingBinaryNode(ConnectionFactory factory, SocketAddress address, SocketChannel channel, int bufferSize,
            boolean authenticate) {
        super(address, channel, bufferSize, factory.createReadOperationQueue(), factory.createWriteOperationQueue(),
                factory.createOperationQueue(), factory.getOpQueueMaxBlockTime(), authenticate, factory.getOperationTimeout(),
                factory.getAuthWaitTime(), factory);
    }

    /**
     * Called by spymemcached on the I/O thread, once an operation is written, before it takes the
     * next from the write queue: two or more gets at the head of the queue become one.
     */
    @Override
    protected void optimize() {
        if (!(writeQ.peek() instanceof GetOperation)) {
            return;
        }
        Operation first = writeQ.remove();
        optimizedOp = first;
        if (!(writeQ.peek() instanceof GetOperation)) {
            return;
        }
        MergedGet merged = new MergedGet((GetOperation) first);
        while (writeQ.peek() instanceof GetOperation next && merged.keys() < MAX_KEYS) {
            writeQ.remove();
            // A get whose caller gave up is dropped, as spymemcached drops it when it comes to write it.
            if (!next.isCancelled()) {
                merged.add(next);
            }
        }
        merged.initialize();
        optimizedOp = merged;
    }

    /**
     * The gets merged into one request: the keys are sent once each, and every key's reply goes
     * to each get that asked for it ({@link ProxyCallback}, which also completes them all on the
     * closing {@code NOOP}).
     */
    private static final class MergedGet extends MultiGetOperationImpl {

        private final ProxyCallback callbacks;

        MergedGet(GetOperation first) {
            this(first, new ProxyCallback());
        }

        private MergedGet(GetOperation first, ProxyCallback callbacks) {
            super(Collections.emptySet(), callbacks);
            this.callbacks = callbacks;
            add(first);
        }

        void add(GetOperation get) {
            callbacks.addCallbacks(get);
            for (String key : get.getKeys()) {
                // Plain memcached has no vBuckets: every key keeps the 0 addKey gives it.
                addKey(key);
            }
        }

        int keys() {
            return callbacks.numKeys();
        }
    }
}
