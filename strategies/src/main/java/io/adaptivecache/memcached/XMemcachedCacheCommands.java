package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.call.CommandHandler;
import net.rubyeye.xmemcached.GetsResponse;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.exception.MemcachedClientException;
import net.rubyeye.xmemcached.exception.MemcachedException;
import net.rubyeye.xmemcached.exception.MemcachedServerException;
import org.jspecify.annotations.Nullable;

import static io.adaptivecache.memcached.MemcachedExpiry.exptime;

/**
 * The cache commands on one XMemcached client ({@link MemcachedDriver#XMEMCACHED}), with the
 * same semantics and value encoding as the spymemcached commands: each call waits on the
 * caller's thread for its reply (XMemcached has no completion callbacks) and returns a
 * completed stage. XMemcached's exceptions are translated here, since only this class may name
 * them (XMemcached is an optional dependency).
 */
final class XMemcachedCacheCommands implements CommandHandler<MemcachedClient> {

    private final long timeoutMillis;
    private final String servers;

    XMemcachedCacheCommands(Duration operationTimeout, String servers) {
        this.timeoutMillis = operationTimeout.toMillis();
        this.servers = servers;
    }

    @Override
    public CompletionStage<byte @Nullable []> get(MemcachedClient client, String key) {
        return call(() -> client.get(key, timeoutMillis, XMemcachedRawBytesTranscoder.INSTANCE));
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(MemcachedClient client, List<String> keys) {
        return call(() -> CommandHandler.inKeyOrder(keys, client.get(keys, timeoutMillis, XMemcachedRawBytesTranscoder.INSTANCE)));
    }

    @Override
    public CompletionStage<Void> set(MemcachedClient client, String key, byte[] value, Duration ttl) {
        return call(() -> {
            if (!client.set(key, exptime(ttl), value, XMemcachedRawBytesTranscoder.INSTANCE, timeoutMillis)) {
                throw new CacheServerException("memcached refused set of " + key, null);
            }
            return null;
        });
    }

    @Override
    public CompletionStage<Boolean> add(MemcachedClient client, String key, byte[] value, Duration ttl) {
        return call(() -> client.add(key, exptime(ttl), value, XMemcachedRawBytesTranscoder.INSTANCE,
                timeoutMillis));
    }

    @Override
    public CompletionStage<Boolean> replace(MemcachedClient client, String key, byte[] value, Duration ttl) {
        return call(() -> client.replace(key, exptime(ttl), value, XMemcachedRawBytesTranscoder.INSTANCE,
                timeoutMillis));
    }

    @Override
    public CompletionStage<Boolean> delete(MemcachedClient client, String key) {
        return call(() -> client.delete(key, timeoutMillis));
    }

    /** memcached's text and binary protocols have no presence-only command: the value is read and dropped. */
    @Override
    public CompletionStage<Boolean> exists(MemcachedClient client, String key) {
        return get(client, key).thenApply(value -> value != null);
    }

    @Override
    public CompletionStage<Boolean> touch(MemcachedClient client, String key, Duration ttl) {
        return call(() -> client.touch(key, exptime(ttl), timeoutMillis));
    }

    @Override
    public CompletionStage<@Nullable CasValue<byte[]>> gets(MemcachedClient client, String key) {
        return call(() -> {
            GetsResponse<byte[]> found = client.gets(key, timeoutMillis, XMemcachedRawBytesTranscoder.INSTANCE);
            return found == null ? null
                    : new CasValue<>(found.getValue(), CasToken.ofVersion("memcached", key, found.getCas()));
        });
    }

    /**
     * XMemcached answers a refused CAS with {@code false} for both "exists" and "not found"; a
     * read tells them apart (a delete racing in between reads as NOT_FOUND, which is then true).
     */
    @Override
    public CompletionStage<CasResult> cas(MemcachedClient client, String key, CasToken token, byte[] value, Duration ttl) {
        return call(() -> {
            if (client.cas(key, exptime(ttl), value, XMemcachedRawBytesTranscoder.INSTANCE, timeoutMillis, token.version())) {
                return CasResult.STORED;
            }
            return client.get(key, timeoutMillis, XMemcachedRawBytesTranscoder.INSTANCE) == null ? CasResult.NOT_FOUND
                    : CasResult.EXISTS;
        });
    }

    /** A missing counter is created holding delta, as if it had started at 0. */
    @Override
    public CompletionStage<Long> incr(MemcachedClient client, String key, long delta) {
        return call(() -> client.incr(key, delta, delta, timeoutMillis, 0));
    }

    @Override
    public CompletionStage<Long> decr(MemcachedClient client, String key, long delta) {
        return call(() -> client.decr(key, delta, 0L, timeoutMillis, 0));
    }

    private <R extends @Nullable Object> CompletionStage<R> call(XMemcachedCall<R> call) {
        try {
            return CompletableFuture.completedFuture(call.run());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(new CacheException("Interrupted while waiting for memcached at " + servers, ex));
        }
        catch (Exception ex) {
            return CompletableFuture.failedFuture(translate(ex));
        }
    }

    /** Also the backend's {@link io.adaptivecache.strategy.ExceptionTranslator}. */
    CacheException translate(Throwable failure) {
        if (failure instanceof CacheException cacheException) {
            return cacheException;
        }
        String detail = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        if (failure instanceof TimeoutException) {
            return new CacheTimeoutException("memcached at " + servers + " did not answer in time: " + detail, failure);
        }
        if (failure instanceof MemcachedServerException || failure instanceof MemcachedClientException) {
            return new CacheServerException("memcached at " + servers + " answered with an error: " + detail, failure);
        }
        if (failure instanceof MemcachedException || failure instanceof IllegalStateException) {
            // "There is no available connection at this moment", a closed session, a stopped client.
            return new CacheConnectionException("memcached at " + servers + " is unreachable: " + detail, failure);
        }
        if (failure instanceof IllegalArgumentException) {
            return new InvalidCacheInputException("memcached client rejected the input: " + detail);
        }
        return new CacheException("memcached call to " + servers + " failed: " + detail, failure);
    }

    @FunctionalInterface
    private interface XMemcachedCall<R extends @Nullable Object> {
        R run() throws TimeoutException, InterruptedException, MemcachedException;
    }
}
