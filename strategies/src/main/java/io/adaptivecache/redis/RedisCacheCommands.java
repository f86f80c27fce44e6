package io.adaptivecache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.call.CommandHandler;
import io.lettuce.core.KeyValue;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

/**
 * The cache commands on one Lettuce connection, to one server or to a cluster; the scripts and
 * TTL arguments are shared with the blocking driver's commands ({@link RedisScripts}).
 *
 * <p><b>CAS on Redis.</b> Redis has no CAS token, so the token is the SHA-1 digest of the value
 * that {@code gets} read, and {@code cas} runs a Lua script that, atomically on the server,
 * replaces the value only if the digest of the value stored now is still that digest. The
 * semantics are compare-by-value: a value changed and then changed back to the very same bytes
 * counts as unchanged (no ABA detection), which is what a cache needs. Values written by other
 * clients take part normally, since nothing but the value is stored.
 *
 * <p>TTLs are sent in milliseconds (rounded up); {@link Duration#ZERO} stores without expiry.
 */
final class RedisCacheCommands<C> implements CommandHandler<C> {

    private final Function<C, RedisClusterAsyncCommands<String, byte[]>> async;
    private final boolean splitBySlot;

    private RedisCacheCommands(Function<C, RedisClusterAsyncCommands<String, byte[]>> async, boolean splitBySlot) {
        this.async = async;
        this.splitBySlot = splitBySlot;
    }

    /** The commands on one server's connection. */
    static RedisCacheCommands<StatefulRedisConnection<String, byte[]>> standalone() {
        return new RedisCacheCommands<>(StatefulRedisConnection::async, false);
    }

    /**
     * The commands on a cluster connection, which routes each single-key command to the node of
     * its key's hash slot; multi-key reads are split by slot here (a cluster refuses an MGET
     * across slots) and run on every node at once.
     */
    static RedisCacheCommands<StatefulRedisClusterConnection<String, byte[]>> cluster() {
        return new RedisCacheCommands<>(StatefulRedisClusterConnection::async, true);
    }

    private RedisClusterAsyncCommands<String, byte[]> commands(C connection) {
        return this.async.apply(connection);
    }

    @Override
    public CompletionStage<byte @Nullable []> get(C connection, String key) {
        return commands(connection).get(key);
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(C connection, List<String> keys) {
        RedisClusterAsyncCommands<String, byte[]> commands = commands(connection);
        if (!this.splitBySlot) {
            // One server answers in the order asked.
            return commands.mget(keys.toArray(new String[0])).thenApply(values -> {
                Map<String, byte[]> present = new LinkedHashMap<>(values.size() * 2);
                for (KeyValue<String, byte[]> value : values) {
                    if (value.hasValue()) {
                        present.put(value.getKey(), value.getValue());
                    }
                }
                return present;
            });
        }
        Map<Integer, List<String>> bySlot = new HashMap<>();
        for (String key : keys) {
            bySlot.computeIfAbsent(SlotHash.getSlot(key), slot -> new ArrayList<>()).add(key);
        }
        // One MGET per slot, all in flight at once: the connection sends each to its slot's node.
        List<CompletableFuture<List<KeyValue<String, byte[]>>>> replies = new ArrayList<>(bySlot.size());
        for (List<String> slotKeys : bySlot.values()) {
            replies.add(commands.mget(slotKeys.toArray(new String[0])).toCompletableFuture());
        }
        return CompletableFuture.allOf(replies.toArray(new CompletableFuture<?>[0])).thenApply(done -> {
            List<List<KeyValue<String, byte[]>>> values = new ArrayList<>(replies.size());
            for (CompletableFuture<List<KeyValue<String, byte[]>>> reply : replies) {
                values.add(reply.join());
            }
            return present(keys, values);
        });
    }

    /** The present values, in the order of {@code keys} whatever order the replies came in. */
    private static Map<String, byte[]> present(List<String> keys, List<List<KeyValue<String, byte[]>>> replies) {
        Map<String, byte[]> byKey = new HashMap<>(keys.size() * 2);
        for (List<KeyValue<String, byte[]>> reply : replies) {
            for (KeyValue<String, byte[]> value : reply) {
                if (value.hasValue()) {
                    byKey.put(value.getKey(), value.getValue());
                }
            }
        }
        return CommandHandler.inKeyOrder(keys, byKey);
    }

    @Override
    public CompletionStage<Void> set(C connection, String key, byte[] value,
            Duration ttl) {
        RedisClusterAsyncCommands<String, byte[]> commands = commands(connection);
        return (ttl.isZero() ? commands.set(key, value) : commands.set(key, value, SetArgs.Builder.px(RedisScripts.millis(ttl))))
                .thenApply(reply -> null);
    }

    @Override
    public CompletionStage<Boolean> add(C connection, String key, byte[] value,
            Duration ttl) {
        SetArgs args = ttl.isZero() ? SetArgs.Builder.nx() : SetArgs.Builder.nx().px(RedisScripts.millis(ttl));
        return commands(connection).set(key, value, args).thenApply(RedisCacheCommands::isOk);
    }

    @Override
    public CompletionStage<Boolean> replace(C connection, String key, byte[] value,
            Duration ttl) {
        SetArgs args = ttl.isZero() ? SetArgs.Builder.xx() : SetArgs.Builder.xx().px(RedisScripts.millis(ttl));
        return commands(connection).set(key, value, args).thenApply(RedisCacheCommands::isOk);
    }

    @Override
    public CompletionStage<Boolean> delete(C connection, String key) {
        return commands(connection).del(key).thenApply(removed -> removed > 0);
    }

    @Override
    public CompletionStage<@Nullable CasValue<byte[]>> gets(C connection, String key) {
        return commands(connection).get(key)
                .thenApply(value -> value == null ? null : new CasValue<>(value, CasToken.ofDigest("redis", key, RedisScript.sha1Hex(value))));
    }

    @Override
    public CompletionStage<CasResult> cas(C connection, String key, CasToken token,
            byte[] value, Duration ttl) {
        byte[] digest = token.digest().getBytes(StandardCharsets.US_ASCII);
        return RedisScripts.COMPARE_AND_SET.run(commands(connection), key, digest, value, RedisScripts.ttlArgument(ttl))
                .thenApply(code -> RedisScripts.casResult(code));
    }

    @Override
    public CompletionStage<Long> incr(C connection, String key, long delta) {
        return commands(connection).incrby(key, delta);
    }

    @Override
    public CompletionStage<Long> decr(C connection, String key, long delta) {
        return commands(connection).decrby(key, delta);
    }

    @Override
    public CompletionStage<Boolean> exists(C connection, String key) {
        return commands(connection).exists(key).thenApply(count -> count == 1L);
    }

    @Override
    public CompletionStage<Boolean> touch(C connection, String key, Duration ttl) {
        if (!ttl.isZero()) {
            return commands(connection).pexpire(key, RedisScripts.millis(ttl));
        }
        return RedisScripts.TOUCH.run(commands(connection), key, RedisScripts.NO_EXPIRY).thenApply(existed -> existed == 1L);
    }

    private static boolean isOk(String reply) {
        return "OK".equals(reply);
    }
}
