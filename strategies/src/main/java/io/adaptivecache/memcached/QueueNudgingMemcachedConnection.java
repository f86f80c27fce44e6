package io.adaptivecache.memcached;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;

import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.ConnectionObserver;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedConnection;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.OperationFactory;
import net.spy.memcached.ops.Operation;

/**
 * spymemcached's connection, fixed for bounded queues. Its I/O thread moves a node's operations
 * from the input queue to the write queue only as far as the write queue has room, and only
 * after an operation is added; when a stalled server filled both queues, the input queue stays
 * full for good, because every new operation is refused before it can prompt the move. Here a
 * refused operation still prompts it, so the queues drain once the server answers again.
 */
final class QueueNudgingMemcachedConnection extends MemcachedConnection {

    QueueNudgingMemcachedConnection(int bufferSize, ConnectionFactory factory, List<InetSocketAddress> addresses,
            Collection<ConnectionObserver> observers, FailureMode failureMode, OperationFactory operationFactory)
            throws IOException {
        super(bufferSize, factory, addresses, observers, failureMode, operationFactory);
    }

    @Override
    protected void addOperation(MemcachedNode node, Operation operation) {
        try {
            super.addOperation(node, operation);
        }
        catch (IllegalStateException full) {
            this.addedQueue.offer(node);
            this.selector.wakeup();
            throw full;
        }
    }
}
