package io.adaptivecache.memcached;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

import io.adaptivecache.CacheTimeoutException;
import net.spy.memcached.ops.Operation;
import org.jspecify.annotations.Nullable;

/**
 * Fails calls that outlive the operation timeout. spymemcached enforces its timeout only on
 * a thread blocked in {@code get(timeout)}; an operation already written to a server that never
 * answers would otherwise stay pending forever. Rather than a scheduled task per call, one
 * daemon thread per template sweeps a FIFO of pending calls: every call has the same timeout,
 * so deadlines arrive in order and a sweep stops at the first call still in time.
 *
 * <p>The queue holds at most (calls per second x timeout) entries: done calls behind a pending
 * one are dropped once it completes or expires. A call lets go of its result and operation as
 * soon as it completes, so that the queue never keeps values alive: with 100 KiB values, holding
 * them until the next sweep put megabytes of dead values in every young collection and cut
 * throughput to a third (found by the benchmarks).
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

    <T extends @Nullable Object> CompletableFuture<T> track(CompletableFuture<T> result, Future<?> operation) {
        if (!result.isDone()) {
            Pending call = new Pending(result, operation, System.nanoTime() + timeoutNanos);
            pending.offer(call);
            result.whenComplete(call);
        }
        return result;
    }

    /**
     * Tracks a call before its operation is queued; the call releases its entry when it completes,
     * so no completion stage is added per call.
     */
    void track(SpymemcachedCall<?> call, Operation operation) {
        Pending entry = new Pending(call, operation, System.nanoTime() + timeoutNanos);
        call.bind(operation, entry);
        pending.offer(entry);
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
            CompletableFuture<?> result = head.result;
            Object operation = head.operation;
            if (result != null && operation != null && !result.isDone()) {
                if (now != Long.MAX_VALUE && head.deadline - now > 0) {
                    return;
                }
                result.completeExceptionally(new CacheTimeoutException("memcached at " + target + " did not answer within "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms", null));
                if (operation instanceof Operation op) {
                    // What spymemcached's future does on a timed-out get(timeout), then its cancel(); but not counted
                    // against the connection: on the future path below the count is reset as soon as it is taken (the
                    // listener reads the done future, whose get() resets it), so neither path reopens a connection for
                    // timeouts, and the write-queue nudge (SpymemcachedIoThread) keeps a stalled one draining.
                    op.timeOut();
                    op.cancel();
                }
                else {
                    Future<?> future = (Future<?>) operation;
                    countTimeoutOnConnection(future);
                    future.cancel(false);
                }
            }
            pending.poll();
        }
    }

    /**
     * Asking spymemcached's future for its result with no wait is how spymemcached learns of a
     * timeout: it counts it against the operation's connection and times the operation out. The
     * listener that completes the call then reads the done future, whose {@code get()} resets
     * that count, so it never reaches spymemcached's threshold for reopening a connection
     * ({@code timeoutExceptionThreshold}); a stalled connection whose bounded queues filled is kept
     * draining by {@link SpymemcachedIoThread} instead.
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

    /**
     * A call in flight: its result and its spymemcached operation (or the future wrapping it).
     * Completing the call (any way) releases both, leaving only the deadline.
     */
    static final class Pending implements BiConsumer<Object, Throwable> {

        private final long deadline;
        private volatile @Nullable CompletableFuture<?> result;
        private volatile @Nullable Object operation;

        Pending(CompletableFuture<?> result, Object operation, long deadline) {
            this.result = result;
            this.operation = operation;
            this.deadline = deadline;
        }

        void release() {
            this.result = null;
            this.operation = null;
        }

        @Override
        public void accept(@Nullable Object value, @Nullable Throwable failure) {
            release();
        }
    }
}
