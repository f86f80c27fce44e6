package io.adaptivecache.memcached;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import io.adaptivecache.CacheServerException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.call.CommandHandler;
import net.spy.memcached.CASResponse;
import net.spy.memcached.CASValue;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.BulkFuture;
import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import org.jspecify.annotations.Nullable;

import static io.adaptivecache.memcached.MemcachedExpiry.exptime;

/**
 * The cache commands on one spymemcached client ({@link MemcachedDriver#SPYMEMCACHED}), with memcached's own semantics: CAS from
 * {@code gets}, multi-get as one bulk request per server, counters that start at 0.
 *
 * <p>Each spymemcached future is bridged to a {@link CompletableFuture} by a completion
 * listener (run on the client's I/O thread, no thread blocks per call) and registered with
 * {@link OperationDeadlines}, which fails it if the server does not answer in time.
 */
final class SpymemcachedCacheCommands implements CommandHandler<MemcachedClient> {

    private final MemcachedProtocol protocol;
    private final OperationDeadlines deadlines;

    SpymemcachedCacheCommands(MemcachedProtocol protocol, OperationDeadlines deadlines) {
        this.protocol = protocol;
        this.deadlines = deadlines;
    }

    @Override
    public CompletionStage<byte @Nullable []> get(MemcachedClient client, String key) {
        GetFuture<byte[]> operation = client.asyncGet(key, RawBytesTranscoder.INSTANCE);
        CompletableFuture<byte @Nullable []> result = new CompletableFuture<>();
        operation.addListener(done -> complete(result, done, (value, status) -> (byte[]) value));
        return deadlines.track(result, operation);
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(MemcachedClient client, List<String> keys) {
        BulkFuture<Map<String, byte[]>> operation = client.asyncGetBulk(keys, RawBytesTranscoder.INSTANCE);
        CompletableFuture<Map<String, byte[]>> result = new CompletableFuture<>();
        operation.addListener(done -> complete(result, done, (values, status) -> inRequestOrder(keys, values)));
        return deadlines.track(result, operation);
    }

    private static Map<String, byte[]> inRequestOrder(List<String> keys, Object found) {
        @SuppressWarnings("unchecked")
        Map<String, byte[]> values = (Map<String, byte[]>) found;
        return CommandHandler.inKeyOrder(keys, values);
    }

    @Override
    public CompletionStage<Void> set(MemcachedClient client, String key, byte[] value, Duration ttl) {
        return store(client.set(key, exptime(ttl), value, RawBytesTranscoder.INSTANCE), key, "set")
                .thenApply(stored -> null);
    }

    @Override
    public CompletionStage<Boolean> add(MemcachedClient client, String key, byte[] value, Duration ttl) {
        return store(client.add(key, exptime(ttl), value, RawBytesTranscoder.INSTANCE), key, "add");
    }

    @Override
    public CompletionStage<Boolean> replace(MemcachedClient client, String key, byte[] value, Duration ttl) {
        return store(client.replace(key, exptime(ttl), value, RawBytesTranscoder.INSTANCE), key, "replace");
    }

    @Override
    public CompletionStage<Boolean> delete(MemcachedClient client, String key) {
        return store(client.delete(key), key, "delete");
    }

    /** memcached's text and binary protocols have no presence-only command: the value is read and dropped. */
    @Override
    public CompletionStage<Boolean> exists(MemcachedClient client, String key) {
        return get(client, key).thenApply(value -> value != null);
    }

    @Override
    public CompletionStage<Boolean> touch(MemcachedClient client, String key, Duration ttl) {
        return store(client.touch(key, exptime(ttl)), key, "touch");
    }

    /** A boolean outcome: {@code false} only for "exists"/"not found"/"not stored", an error otherwise (value too large, out of memory). */
    private CompletableFuture<Boolean> store(OperationFuture<Boolean> operation, String key, String command) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        operation.addListener(done -> complete(result, done, (stored, status) -> {
            if (Boolean.TRUE.equals(stored)) {
                return Boolean.TRUE;
            }
            StatusCode code = status.getStatusCode();
            if (code == StatusCode.ERR_EXISTS || code == StatusCode.ERR_NOT_FOUND || code == StatusCode.ERR_NOT_STORED) {
                return Boolean.FALSE;
            }
            throw serverError(command, key, status);
        }));
        return deadlines.track(result, operation);
    }

    @Override
    public CompletionStage<@Nullable CasValue<byte[]>> gets(MemcachedClient client, String key) {
        OperationFuture<CASValue<byte[]>> operation = client.asyncGets(key, RawBytesTranscoder.INSTANCE);
        CompletableFuture<@Nullable CasValue<byte[]>> result = new CompletableFuture<>();
        operation.addListener(done -> complete(result, done, (found, status) -> {
            if (found == null) {
                return null;
            }
            CASValue<?> value = (CASValue<?>) found;
            return new CasValue<>((byte[]) value.getValue(), CasToken.ofVersion("memcached", key, value.getCas()));
        }));
        return deadlines.track(result, operation);
    }

    @Override
    public CompletionStage<CasResult> cas(MemcachedClient client, String key, CasToken token, byte[] value, Duration ttl) {
        OperationFuture<CASResponse> operation = client.asyncCAS(key, token.version(), exptime(ttl), value,
                RawBytesTranscoder.INSTANCE);
        CompletableFuture<CasResult> result = new CompletableFuture<>();
        operation.addListener(done -> complete(result, done, (response, status) -> switch ((CASResponse) response) {
            case OK -> CasResult.STORED;
            case EXISTS -> CasResult.EXISTS;
            case NOT_FOUND -> CasResult.NOT_FOUND;
            default -> throw serverError("cas", key, status);
        }));
        return deadlines.track(result, operation);
    }

    @Override
    public CompletionStage<Long> incr(MemcachedClient client, String key, long delta) {
        if (protocol == MemcachedProtocol.BINARY) {
            // One round trip: a missing counter is created holding delta, as if it had started at 0.
            return counter(client.asyncIncr(key, delta, delta, 0), key, "incr");
        }
        return counterOverText(client, key, delta, true);
    }

    @Override
    public CompletionStage<Long> decr(MemcachedClient client, String key, long delta) {
        if (protocol == MemcachedProtocol.BINARY) {
            return counter(client.asyncDecr(key, delta, 0L, 0), key, "decr");
        }
        return counterOverText(client, key, delta, false);
    }

    /** The text protocol cannot create a missing counter in the same command: incr, then add, then incr once more if add lost a race. */
    private CompletionStage<Long> counterOverText(MemcachedClient client, String key, long delta, boolean up) {
        return mutate(client, key, delta, up).thenCompose(value -> {
            if (value != null) {
                return CompletableFuture.completedFuture(value);
            }
            long initial = up ? delta : 0;
            byte[] text = Long.toString(initial).getBytes(StandardCharsets.US_ASCII);
            return store(client.add(key, 0, text, RawBytesTranscoder.INSTANCE), key, "add")
                    .thenCompose(added -> added ? CompletableFuture.completedFuture(initial)
                            : mutate(client, key, delta, up).thenApply(retried -> {
                                if (retried == null) {
                                    throw new CacheServerException("memcached kept losing counter " + key + " while creating it", null);
                                }
                                return retried;
                            }));
        });
    }

    /** Completes with {@code null} when the counter does not exist. */
    private CompletableFuture<@Nullable Long> mutate(MemcachedClient client, String key, long delta, boolean up) {
        OperationFuture<Long> operation = up ? client.asyncIncr(key, delta) : client.asyncDecr(key, delta);
        CompletableFuture<@Nullable Long> result = new CompletableFuture<>();
        operation.addListener(done -> complete(result, done, (value, status) -> {
            if (status.getStatusCode() == StatusCode.ERR_NOT_FOUND) {
                return null;
            }
            if (!status.isSuccess()) {
                throw serverError(up ? "incr" : "decr", key, status);
            }
            return (Long) value;
        }));
        return deadlines.track(result, operation);
    }

    private CompletableFuture<Long> counter(OperationFuture<Long> operation, String key, String command) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        operation.addListener(done -> complete(result, done, (value, status) -> {
            if (!status.isSuccess()) {
                throw serverError(command, key, status);
            }
            return (Long) value;
        }));
        return deadlines.track(result, operation);
    }

    private static CacheServerException serverError(String command, String key, OperationStatus status) {
        return new CacheServerException("memcached refused " + command + " of " + key + ": " + status.getMessage()
                + " (" + status.getStatusCode() + ")", null);
    }

    /**
     * Completes {@code result} from a done spymemcached future. Its {@code get()} does not block
     * here, and throws for cancelled, timed-out or failed operations.
     */
    private static <R extends @Nullable Object> void complete(CompletableFuture<R> result, java.util.concurrent.Future<?> done,
            Outcome<R> outcome) {
        try {
            Object value = done.get();
            result.complete(outcome.apply(value, statusOf(done)));
        }
        catch (ExecutionException ex) {
            result.completeExceptionally(ex.getCause() != null ? ex.getCause() : ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            result.completeExceptionally(ex);
        }
        catch (RuntimeException ex) {
            result.completeExceptionally(ex);
        }
    }

    private static OperationStatus statusOf(java.util.concurrent.Future<?> done) {
        if (done instanceof OperationFuture<?> operation) {
            return operation.getStatus();
        }
        if (done instanceof GetFuture<?> get) {
            return get.getStatus();
        }
        return ((BulkFuture<?>) done).getStatus();
    }

    @FunctionalInterface
    private interface Outcome<R extends @Nullable Object> {
        R apply(@Nullable Object value, OperationStatus status);
    }
}
