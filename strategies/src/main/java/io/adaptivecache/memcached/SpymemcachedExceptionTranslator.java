package io.adaptivecache.memcached;

import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.strategy.ExceptionTranslator;
import net.spy.memcached.internal.CheckedOperationTimeoutException;
import net.spy.memcached.ops.OperationException;

/** Reads spymemcached's exceptions as timeout, connection or server failures. */
final class SpymemcachedExceptionTranslator implements ExceptionTranslator {

    private final String servers;
    private final int operationQueueSize;

    SpymemcachedExceptionTranslator(String servers) {
        this(servers, -1);
    }

    /**
     * @param operationQueueSize the bound of the client's operation queue, named when it is full; -1 if unknown
     */
    SpymemcachedExceptionTranslator(String servers, int operationQueueSize) {
        this.servers = servers;
        this.operationQueueSize = operationQueueSize;
    }

    @Override
    public CacheException translate(Throwable failure) {
        String detail = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        if (failure instanceof CheckedOperationTimeoutException || failure instanceof TimeoutException) {
            return new CacheTimeoutException("memcached at " + servers + " did not answer in time: " + detail, failure);
        }
        if (failure instanceof CancellationException) {
            return new CacheConnectionException("memcached at " + servers
                    + " dropped the operation (server unreachable or reconnecting): " + detail, failure);
        }
        if (failure instanceof OperationException) {
            return new CacheServerException("memcached at " + servers + " answered with an error: " + detail, failure);
        }
        if (failure instanceof IllegalStateException && detail.startsWith("Timed out waiting to add")) {
            // spymemcached's words for its bounded operation queue being full (we never let it wait).
            return new CacheRejectedException("The memcached client's operation queue to " + servers + " is full"
                    + (this.operationQueueSize > 0 ? " (" + this.operationQueueSize + " operations, operation-queue-size)" : "")
                    + "; the operation was not sent (the server is slow or stalled)", null);
        }
        if (failure instanceof IllegalStateException) {
            // "Shutting down", or the client's state otherwise forbids the operation.
            return new CacheConnectionException("memcached client for " + servers + " rejected the operation: " + detail,
                    failure);
        }
        if (failure instanceof IllegalArgumentException) {
            return new InvalidCacheInputException("memcached client rejected the input: " + detail);
        }
        return new CacheException("memcached call to " + servers + " failed: " + detail, failure);
    }
}
