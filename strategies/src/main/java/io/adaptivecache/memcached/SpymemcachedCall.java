package io.adaptivecache.memcached;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheServerException;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.internal.CheckedOperationTimeoutException;
import net.spy.memcached.ops.DeleteOperation;
import net.spy.memcached.ops.GetOperation;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationCallback;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.ops.StoreOperation;
import org.jspecify.annotations.Nullable;

/**
 * One call on a {@link SpymemcachedClient}: the spymemcached operation's callback and the
 * caller's future in one object. When the operation ends, the future completes: on the I/O
 * thread once its turn ends ({@link SpymemcachedIoThread}), at once on any other thread. It reads
 * the operation the way spymemcached's own futures do (an operation that failed, was cancelled or
 * timed out fails the call); a success resets the connection's count of timeouts in a row
 * (spymemcached's futures reset it in {@code get()}, whatever the outcome).
 *
 * @param <T> the call's result
 */
abstract sealed class SpymemcachedCall<T extends @Nullable Object> extends CompletableFuture<T> implements OperationCallback {

    private @Nullable Operation operation;
    private @Nullable OperationStatus status;
    private OperationDeadlines.@Nullable Pending deadline;

    /** Set before the operation is queued, so before any callback can run. */
    final void bind(Operation operation, OperationDeadlines.@Nullable Pending deadline) {
        this.operation = operation;
        this.deadline = deadline;
    }

    /** The operation was never queued: nothing will complete it, and the deadline must not fail it later. */
    final void abandon() {
        releaseDeadline();
    }

    @Override
    public final void receivedStatus(OperationStatus status) {
        this.status = status;
    }

    /** Called by spymemcached when the operation ended: delivers the outcome, at the end of the I/O thread's turn if on it. */
    @Override
    public final void complete() {
        SpymemcachedIoThread.deliver(this);
    }

    /** Completes this future with the outcome of its operation, unless it is done already. */
    final void deliver() {
        Operation op = operation;
        if (op != null && !isDone()) {
            if (op.hasErrored()) {
                completeExceptionally(op.getException());
            }
            else if (op.isCancelled()) {
                completeExceptionally(new CancellationException("Cancelled"));
            }
            else if (op.isTimedOut()) {
                completeExceptionally(new CheckedOperationTimeoutException("Operation timed out.", op));
            }
            else {
                MemcachedNode node = op.getHandlingNode();
                if (node != null) {
                    node.setContinuousTimeout(false);
                }
                try {
                    complete(outcome(status));
                }
                catch (Exception ex) {
                    completeExceptionally(ex);
                }
            }
        }
        releaseDeadline();
    }

    private void releaseDeadline() {
        OperationDeadlines.@Nullable Pending pending = deadline;
        if (pending != null) {
            pending.release();
            deadline = null;
        }
    }

    /**
     * The result from the status the operation ended with; throws for a status that is an error.
     * @param status the last status received, {@code null} if none was
     * @return the result
     * @throws Exception the call's failure
     */
    abstract T outcome(@Nullable OperationStatus status) throws Exception;

    /**
     * A get: the value, or {@code null} for a miss. A get merged with others into one request
     * ({@link GetMergingBinaryNode}) learns of that request's cancellation or timeout only from
     * its status, as its own operation was never written.
     */
    static final class Get extends SpymemcachedCall<byte @Nullable []> implements GetOperation.Callback {

        private byte @Nullable [] value;

        @Override
        public void gotData(String key, int flags, byte[] data) {
            this.value = data;
        }

        @Override
        byte @Nullable [] outcome(@Nullable OperationStatus status) throws CheckedOperationTimeoutException {
            if (status != null && status.getStatusCode() == StatusCode.CANCELLED) {
                throw new CancellationException("Cancelled");
            }
            if (status != null && status.getStatusCode() == StatusCode.TIMEDOUT) {
                throw new CheckedOperationTimeoutException("Operation timed out.", (Operation) null);
            }
            return value;
        }
    }

    /**
     * A store, delete or touch: {@code true} when done, {@code false} only for "exists", "not
     * found" or "not stored", an error otherwise (value too large, out of memory).
     */
    static final class Store extends SpymemcachedCall<Boolean> implements StoreOperation.Callback, DeleteOperation.Callback {

        private final String command;
        private final String key;

        Store(String command, String key) {
            this.command = command;
            this.key = key;
        }

        @Override
        public void gotData(String key, long cas) {
        }

        @Override
        public void gotData(long cas) {
        }

        @Override
        Boolean outcome(@Nullable OperationStatus status) {
            if (status == null) {
                throw new CacheServerException("memcached sent no status for " + command + " of " + key, null);
            }
            if (status.isSuccess()) {
                return Boolean.TRUE;
            }
            StatusCode code = status.getStatusCode();
            if (code == StatusCode.ERR_EXISTS || code == StatusCode.ERR_NOT_FOUND || code == StatusCode.ERR_NOT_STORED) {
                return Boolean.FALSE;
            }
            throw SpymemcachedCacheCommands.serverError(command, key, status);
        }
    }
}
