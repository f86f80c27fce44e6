package io.adaptivecache.memcached;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.adaptivecache.CacheTimeoutException;

/**
 * Fails calls that outlive the operation timeout. spymemcached enforces its timeout only on
 * a thread blocked in {@code get(timeout)}; an operation already written to a server that never
 * answers would otherwise stay pending forever. Rather than a scheduled task per call, one
 * daemon thread per template sweeps a FIFO of pending calls: every call has the same timeout,
 * so deadlines arrive in order and a sweep stops at the first call still in time.
 *
 * <p>The queue holds at most (calls per second x timeout) entries: done calls behind a pending
 * one are dropped once it completes or expires.
 */
final class OperationDeadlines implements AutoCloseable {

    private final long timeoutNanos;
    private final long sweepNanos;
    private final String target;
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final Thread sweeper;
    private volatile boolean running = true;

    OperationDeadlines(long timeoutNanos, String target) {
        this.timeoutNanos = timeoutNanos;
        this.sweepNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(timeoutNanos / 8, TimeUnit.MILLISECONDS.toNanos(50)));
        this.target = target;
        this.sweeper = new Thread(this::sweepUntilClosed, "adaptive-cache-memcached-deadlines");
        this.sweeper.setDaemon(true);
        this.sweeper.start();
    }

    <T> CompletableFuture<T> track(CompletableFuture<T> result, Future<?> operation) {
        if (!result.isDone()) {
            pending.offer(new Pending(result, operation, System.nanoTime() + timeoutNanos));
        }
        return result;
    }

    int size() {
        return pending.size();
    }

    private void sweepUntilClosed() {
        while (running) {
            LockSupport.parkNanos(this, sweepNanos);
            sweep(System.nanoTime());
        }
        // Closing: fail what is left rather than leave callers waiting for replies that cannot come.
        sweep(Long.MAX_VALUE);
    }

    void sweep(long now) {
        Pending head;
        while ((head = pending.peek()) != null) {
            if (!head.result.isDone()) {
                if (now != Long.MAX_VALUE && head.deadline - now > 0) {
                    return;
                }
                head.result.completeExceptionally(new CacheTimeoutException("memcached at " + target + " did not answer within "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
                countTimeoutOnConnection(head.operation);
                head.operation.cancel(false);
            }
            pending.poll();
        }
    }

    /**
     * Asking spymemcached's future for its result with no wait is how spymemcached learns of a
     * timeout: it counts it against the operation's connection, and recycles a connection whose
     * operations keep timing out (see {@code timeoutExceptionThreshold}). Without this, a
     * connection whose bounded queues filled while its server stalled may never drain again
     * (spymemcached stops moving operations to a full write queue and waits for a new operation,
     * which the full input queue refuses).
     */
    private static void countTimeoutOnConnection(Future<?> operation) {
        try {
            operation.get(0, TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException | ExecutionException | java.util.concurrent.CancellationException ex) {
            // Expected: the call is overdue; spymemcached has now counted it.
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(sweeper);
        try {
            sweeper.join(TimeUnit.NANOSECONDS.toMillis(sweepNanos) + 1000);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private record Pending(CompletableFuture<?> result, Future<?> operation, long deadline) {
    }
}
