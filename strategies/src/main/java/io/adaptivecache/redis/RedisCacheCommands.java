package io.adaptivecache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.command.CacheCommands;
import io.lettuce.core.KeyValue;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

/**
 * The cache commands on one Lettuce connection.
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
final class RedisCacheCommands implements CacheCommands<StatefulRedisConnection<String, byte[]>> {

    private static final byte[] NO_EXPIRY = {'0'};

    private static final RedisScript COMPARE_AND_SET = new RedisScript("""
            local current = redis.call('GET', KEYS[1])
            if not current then return 0 end
            if redis.sha1hex(current) ~= ARGV[1] then return 1 end
            if ARGV[3] == '0' then redis.call('SET', KEYS[1], ARGV[2])
            else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
            return 2
            """);

    private static final RedisScript TOUCH = new RedisScript("""
            if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
            if ARGV[1] == '0' then redis.call('PERSIST', KEYS[1])
            else redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
            return 1
            """);

    private static final CasResult[] CAS_RESULTS = {CasResult.NOT_FOUND, CasResult.EXISTS, CasResult.STORED};

    @Override
    public CompletionStage<byte[]> get(StatefulRedisConnection<String, byte[]> connection, String key) {
        return connection.async().get(key);
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(StatefulRedisConnection<String, byte[]> connection,
            List<String> keys) {
        return connection.async().mget(keys.toArray(new String[0])).thenApply(values -> {
            Map<String, byte[]> present = new LinkedHashMap<>(values.size() * 2);
            for (KeyValue<String, byte[]> value : values) {
                if (value.hasValue()) {
                    present.put(value.getKey(), value.getValue());
                }
            }
            return present;
        });
    }

    @Override
    public CompletionStage<Void> set(StatefulRedisConnection<String, byte[]> connection, String key, byte[] value,
            Duration ttl) {
        RedisAsyncCommands<String, byte[]> commands = connection.async();
        return (ttl.isZero() ? commands.set(key, value) : commands.set(key, value, SetArgs.Builder.px(millis(ttl))))
                .thenApply(reply -> null);
    }

    @Override
    public CompletionStage<Boolean> add(StatefulRedisConnection<String, byte[]> connection, String key, byte[] value,
            Duration ttl) {
        SetArgs args = ttl.isZero() ? SetArgs.Builder.nx() : SetArgs.Builder.nx().px(millis(ttl));
        return connection.async().set(key, value, args).thenApply(RedisCacheCommands::isOk);
    }

    @Override
    public CompletionStage<Boolean> replace(StatefulRedisConnection<String, byte[]> connection, String key, byte[] value,
            Duration ttl) {
        SetArgs args = ttl.isZero() ? SetArgs.Builder.xx() : SetArgs.Builder.xx().px(millis(ttl));
        return connection.async().set(key, value, args).thenApply(RedisCacheCommands::isOk);
    }

    @Override
    public CompletionStage<Boolean> delete(StatefulRedisConnection<String, byte[]> connection, String key) {
        return connection.async().del(key).thenApply(removed -> removed > 0);
    }

    @Override
    public CompletionStage<CasValue<byte[]>> gets(StatefulRedisConnection<String, byte[]> connection, String key) {
        return connection.async().get(key)
                .thenApply(value -> value == null ? null : new CasValue<>(value, CasToken.ofDigest("redis", key, RedisScript.sha1Hex(value))));
    }

    @Override
    public CompletionStage<CasResult> cas(StatefulRedisConnection<String, byte[]> connection, String key, CasToken token,
            byte[] value, Duration ttl) {
        byte[] digest = token.digest().getBytes(StandardCharsets.US_ASCII);
        return COMPARE_AND_SET.run(connection.async(), key, digest, value, ttlArgument(ttl))
                .thenApply(code -> CAS_RESULTS[code.intValue()]);
    }

    @Override
    public CompletionStage<Long> incr(StatefulRedisConnection<String, byte[]> connection, String key, long delta) {
        return connection.async().incrby(key, delta);
    }

    @Override
    public CompletionStage<Long> decr(StatefulRedisConnection<String, byte[]> connection, String key, long delta) {
        return connection.async().decrby(key, delta);
    }

    @Override
    public CompletionStage<Boolean> touch(StatefulRedisConnection<String, byte[]> connection, String key, Duration ttl) {
        if (!ttl.isZero()) {
            return connection.async().pexpire(key, millis(ttl));
        }
        return TOUCH.run(connection.async(), key, NO_EXPIRY).thenApply(existed -> existed == 1L);
    }

    private static boolean isOk(String reply) {
        return "OK".equals(reply);
    }

    private static byte[] ttlArgument(Duration ttl) {
        return ttl.isZero() ? NO_EXPIRY : Long.toString(millis(ttl)).getBytes(StandardCharsets.US_ASCII);
    }

    /** Rounded up, so that a sub-millisecond TTL still expires rather than being rejected as PX 0. */
    private static long millis(Duration ttl) {
        long millis = ttl.toMillis();
        return ttl.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
