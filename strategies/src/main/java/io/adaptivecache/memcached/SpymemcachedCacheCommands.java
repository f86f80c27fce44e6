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
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.StoreType;
import net.spy.memcached.internal.BulkFuture;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import org.jspecify.annotations.Nullable;

import static io.adaptivecache.memcached.MemcachedExpiry.exptime;

/**
 * The cache commands on one spymemcached client ({@link MemcachedDriver#SPYMEMCACHED}), with memcached's own semantics: CAS from
 * {@code gets}, multi-get as one bulk request per server, counters that start at 0.
 *
 * <p>Gets, stores, deletes and touches, the commands a cache makes most, are spymemcached
 * operations whose callback is the caller's future ({@link SpymemcachedCall}), completed on the
 * client's I/O thread. The others go through spymemcached's own futures, bridged to a
 * {@link CompletableFuture} by a completion listener run on that thread. Either way no thread
 * blocks per call, and each call is registered with {@link OperationDeadlines}, which fails it if
 * the server does not answer in time.
 */
final class SpymemcachedCacheCommands implements CommandHandler<SpymemcachedClient> {

    private final MemcachedProtocol protocol;
    private final OperationDeadlines deadlines;

    SpymemcachedCacheCommands(MemcachedProtocol protocol, OperationDeadlines deadlines) {
        this.protocol = protocol;
        this.deadlines = deadlines;
    }

    @Override
    public CompletionStage<byte @Nullable []> get(SpymemcachedClient client, String key) {
        SpymemcachedCall.Get call = new SpymemcachedCall.Get();
        return send(client, key, client.operations().get(key, call), call);
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(SpymemcachedClient client, List<String> keys) {
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
    public CompletionStage<Void> set(SpymemcachedClient client, String key, byte[] value, Duration ttl) {
        SpymemcachedCall.Store call = new SpymemcachedCall.Store("set", key);
        return send(client, key, client.operations().store(StoreType.set, key, 0, exptime(ttl), value, call), call)
                .thenApply(stored -> null);
    }

    @Override
    public CompletionStage<Boolean> add(SpymemcachedClient client, String key, byte[] value, Duration ttl) {
        return add(client, key, value, exptime(ttl));
    }

    @Override
    public CompletionStage<Boolean> replace(SpymemcachedClient client, String key, byte[] value, Duration ttl) {
        SpymemcachedCall.Store call = new SpymemcachedCall.Store("replace", key);
        return send(client, key, client.operations().store(StoreType.replace, key, 0, exptime(ttl), value, call), call);
    }

    @Override
    public CompletionStage<Boolean> delete(SpymemcachedClient client, String key) {
        SpymemcachedCall.Store call = new SpymemcachedCall.Store("delete", key);
        return send(client, key, client.operations().delete(key, call), call);
    }

    /** memcached's text and binary protocols have no presence-only command: the value is read and dropped. */
    @Override
    public CompletionStage<Boolean> exists(SpymemcachedClient client, String key) {
        return get(client, key).thenApply(value -> value != null);
    }

    @Override
    public CompletionStage<Boolean> touch(SpymemcachedClient client, String key, Duration ttl) {
        SpymemcachedCall.Store call = new SpymemcachedCall.Store("touch", key);
        return send(client, key, client.operations().touch(key, exptime(ttl), call), call);
    }

    /** {@code false} when the key exists. */
    private CompletableFuture<Boolean> add(SpymemcachedClient client, String key, byte[] value, int exptime) {
        SpymemcachedCall.Store call = new SpymemcachedCall.Store("add", key);
        return send(client, key, client.operations().store(StoreType.add, key, 0, exptime, value, call), call);
    }

    /**
     * Tracks the call's deadline, then queues its operation; an operation that cannot be queued
     * (a client shutting down, a full queue, a key spymemcached refuses) throws here, and its
     * call is dropped from the deadlines.
     */
    private <T extends @Nullable Object> SpymemcachedCall<T> send(SpymemcachedClient client, String key, Operation operation,
            SpymemcachedCall<T> call) {
        deadlines.track(call, operation);
        try {
            client.send(key, operation);
        }
        catch (RuntimeException ex) {
            call.abandon();
            throw ex;
        }
        return call;
    }

    @Override
    public CompletionStage<@Nullable CasValue<byte[]>> gets(SpymemcachedClient client, String key) {
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
    public CompletionStage<CasResult> cas(SpymemcachedClient client, String key, CasToken token, byte[] value, Duration ttl) {
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
    public CompletionStage<Long> incr(SpymemcachedClient client, String key, long delta) {
        if (protocol == MemcachedProtocol.BINARY) {
            // One round trip: a missing counter is created holding delta, as if it had started at 0.
            return counter(client.asyncIncr(key, delta, delta, 0), key, "incr");
        }
        return counterOverText(client, key, delta, true);
    }

    @Override
    public CompletionStage<Long> decr(SpymemcachedClient client, String key, long delta) {
        if (protocol == MemcachedProtocol.BINARY) {
            return counter(client.asyncDecr(key, delta, 0L, 0), key, "decr");
        }
        return counterOverText(client, key, delta, false);
    }

    /** The text protocol cannot create a missing counter in the same command: incr, then add, then incr once more if add lost a race. */
    private CompletionStage<Long> counterOverText(SpymemcachedClient client, String key, long delta, boolean up) {
        return mutate(client, key, delta, up).thenCompose(value -> {
            if (value != null) {
                return CompletableFuture.completedFuture(value);
            }
            long initial = up ? delta : 0;
            byte[] text = Long.toString(initial).getBytes(StandardCharsets.US_ASCII);
            return add(client, key, text, 0)
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
    private CompletableFuture<@Nullable Long> mutate(SpymemcachedClient client, String key, long delta, boolean up) {
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

    static CacheServerException serverError(String command, String key, OperationStatus status) {
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
        return ((BulkFuture<?>) done).getStatus();
    }

    @FunctionalInterface
    private interface Outcome<R extends @Nullable Object> {
        R apply(@Nullable Object value, OperationStatus status);
    }
}
