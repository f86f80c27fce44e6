package io.adaptivecache.memcached;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.ConnectionObserver;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedConnection;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.OperationFactory;
import net.spy.memcached.ops.Operation;
import org.jspecify.annotations.Nullable;

/**
 * spymemcached's connection, which is also the thread that does its I/O, with two changes.
 *
 * <p><b>Callers are woken after the turn's reads.</b> spymemcached completes each operation as
 * it reads its reply, so with many callers its I/O thread wakes one after another in the middle
 * of a read; each woken caller tends to take the CPU from it (the scheduler favours a thread that
 * slept), and the replies and requests still to handle wait behind them. Here a
 * {@link SpymemcachedCall} completed on this thread is delivered when the turn of the I/O loop
 * ends, in the order its reply came: the thread reads what arrived and writes what was queued
 * first, then wakes the callers. A lone caller waits no longer (its reply ends the turn), and a
 * call completed by another thread (a deadline, a shutdown) is delivered at once.
 *
 * <p><b>Bounded queues drain after a stall.</b> The I/O thread moves a node's operations from
 * the input queue to the write queue only as far as the write queue has room, and only after an
 * operation is added; when a stalled server filled both queues, the input queue stays full for
 * good, because every new operation is refused before it can prompt the move. Here a refused
 * operation still prompts it, so the queues drain once the server answers again.
 *
 * <p><b>One wake-up per turn.</b> spymemcached wakes the selector for every operation it queues.
 * The JDK's {@code Selector.wakeup()} takes a lock shared by all callers and by the selecting
 * thread, and writes to an event descriptor when the selector is not already woken; with 200
 * callers queueing on one connection they meet on that lock thousands of times a second, each
 * meeting a park and an unpark (a profile over a 1 ms round trip found 11,000 waits of 50 µs or
 * more in 25 s, the I/O thread among the waiters, and 7% of the CPU in the wake-up). Here only
 * the first operation queued since the I/O thread began its turn wakes the selector, as Netty and
 * XMemcached do. An operation that finds the flag set is queued before the next turn resets it;
 * the selector returns for the first operation's wake-up, and that next turn, which reads the
 * queue after the reset, sends it.
 */
final class SpymemcachedIoThread extends MemcachedConnection {

    private static final AtomicIntegerFieldUpdater<SpymemcachedIoThread> WAKE_UP_REQUESTED =
            AtomicIntegerFieldUpdater.newUpdater(SpymemcachedIoThread.class, "wakeUpRequested");

    /** spymemcached's name for the meter of queued operations (a no-op unless its metrics are on). */
    private static final String REQUEST_RATE = "[MEM] Request Rate: All";

    /**
     * Calls completed during the current turn. Created and used by this thread only, lazily:
     * spymemcached's constructor starts the thread before this class's initializers run.
     */
    private @Nullable ArrayList<SpymemcachedCall<?>> completedThisTurn;

    /**
     * 1 once an operation queued since this thread began its turn has woken, or is waking, the
     * selector. A plain int with no initializer: the thread runs before this class's initializers.
     */
    private volatile int wakeUpRequested;

    SpymemcachedIoThread(int bufferSize, ConnectionFactory factory, List<InetSocketAddress> addresses,
            Collection<ConnectionObserver> observers, FailureMode failureMode, OperationFactory operationFactory)
            throws IOException {
        super(bufferSize, factory, addresses, observers, failureMode, operationFactory);
    }

    /**
     * Completes a call now, or at the end of this turn when called on the I/O thread.
     * @param call a call whose operation ended
     */
    static void deliver(SpymemcachedCall<?> call) {
        if (Thread.currentThread() instanceof SpymemcachedIoThread io) {
            io.deliverAfterTurn(call);
        }
        else {
            call.deliver();
        }
    }

    private void deliverAfterTurn(SpymemcachedCall<?> call) {
        ArrayList<SpymemcachedCall<?>> completed = completedThisTurn;
        if (completed == null) {
            completed = new ArrayList<>();
            completedThisTurn = completed;
        }
        completed.add(call);
    }

    @Override
    public void handleIO() throws IOException {
        // Before the turn reads the queued operations (spymemcached's handleInputQueue comes first in handleIO):
        // whatever is queued after this either wakes the selector or finds a wake-up requested after this point.
        wakeUpRequested = 0;
        try {
            super.handleIO();
        }
        finally {
            ArrayList<SpymemcachedCall<?>> completed = completedThisTurn;
            if (completed != null && !completed.isEmpty()) {
                // By index: a delivered call's dependent actions may end more calls on this thread, delivered in this loop.
                for (int i = 0; i < completed.size(); i++) {
                    completed.get(i).deliver();
                }
                completed.clear();
            }
        }
    }

    /**
     * What spymemcached's own {@code addOperation} does, but waking the selector only for the first
     * operation of a turn (see the class comment), and with no debug line per operation.
     */
    @Override
    protected void addOperation(MemcachedNode node, Operation operation) {
        if (!node.isAuthenticated()) {
            retryOperation(operation);
            return;
        }
        operation.setHandlingNode(node);
        operation.initialize();
        try {
            node.addOp(operation);
        }
        catch (IllegalStateException full) {
            this.addedQueue.offer(node);
            this.selector.wakeup();
            throw full;
        }
        this.addedQueue.offer(node);
        this.metrics.markMeter(REQUEST_RATE);
        if (this.wakeUpRequested == 0 && WAKE_UP_REQUESTED.compareAndSet(this, 0, 1)) {
            this.selector.wakeup();
        }
    }
}
