package io.adaptivecache.template;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import org.jspecify.annotations.Nullable;

/**
 * The synchronous forms, each waiting on its asynchronous form, so that implementations write
 * every command once. The wait is bounded as a safety net only: the client's own command timer
 * fires first.
 */
abstract class AbstractCacheOperations<V> implements CacheOperations<V> {

    /** Longest a synchronous call waits for its reply, in nanoseconds. */
    abstract long awaitNanos();

    final <T extends @Nullable Object> T await(CompletableFuture<T> future) {
        try {
            return future.get(awaitNanos(), TimeUnit.NANOSECONDS);
        }
        catch (ExecutionException ex) {
            Throwable cause = ex.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new CacheException("Cache call failed", cause);
        }
        catch (TimeoutException ex) {
            throw new CacheTimeoutException("No reply within " + TimeUnit.NANOSECONDS.toMillis(awaitNanos()) + " ms");
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new CacheException("Interrupted while waiting for the cache", ex);
        }
    }

    @Override
    public @Nullable V get(String key) {
        return await(getAsync(key));
    }

    @Override
    public Map<String, V> getAll(Collection<String> keys) {
        return await(getAllAsync(keys));
    }

    @Override
    public void set(String key, V value, Duration ttl) {
        await(setAsync(key, value, ttl));
    }

    @Override
    public boolean add(String key, V value, Duration ttl) {
        return await(addAsync(key, value, ttl));
    }

    @Override
    public boolean replace(String key, V value, Duration ttl) {
        return await(replaceAsync(key, value, ttl));
    }

    @Override
    public boolean delete(String key) {
        return await(deleteAsync(key));
    }

    @Override
    public @Nullable CasValue<V> gets(String key) {
        return await(getsAsync(key));
    }

    @Override
    public CasResult cas(String key, CasToken token, V value, Duration ttl) {
        return await(casAsync(key, token, value, ttl));
    }

    @Override
    public long incr(String key, long delta) {
        return await(incrAsync(key, delta));
    }

    @Override
    public long decr(String key, long delta) {
        return await(decrAsync(key, delta));
    }

    @Override
    public boolean touch(String key, Duration ttl) {
        return await(touchAsync(key, ttl));
    }
}
