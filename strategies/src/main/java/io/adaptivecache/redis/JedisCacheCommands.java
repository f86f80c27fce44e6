package io.adaptivecache.redis;

import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.call.CommandHandler;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.SetParams;

/**
 * The cache commands on one blocking Jedis connection: each runs on the caller's thread and
 * returns a completed stage. The same scripts and TTL encodings as the Lettuce commands
 * ({@link RedisScripts}), so values, CAS tokens and expiry are interchangeable between drivers,
 * including across a switch between strategies. Jedis's exceptions are translated here, since
 * only this class may name them (Jedis is an optional dependency).
 */
final class JedisCacheCommands implements CommandHandler<Jedis> {

    private final String address;
    private final @Nullable RedisAuthentication authentication;

    JedisCacheCommands(String address) {
        this(address, null);
    }

    JedisCacheCommands(String address, @Nullable RedisAuthentication authentication) {
        this.address = address;
        this.authentication = authentication;
    }

    @Override
    public CompletionStage<byte @Nullable []> get(Jedis jedis, String key) {
        return call(() -> jedis.get(bytes(key)));
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(Jedis jedis, List<String> keys) {
        return call(() -> {
            byte[][] raw = new byte[keys.size()][];
            for (int i = 0; i < raw.length; i++) {
                raw[i] = bytes(keys.get(i));
            }
            List<byte[]> values = jedis.mget(raw);
            Map<String, byte[]> present = new LinkedHashMap<>(values.size() * 2);
            for (int i = 0; i < values.size(); i++) {
                if (values.get(i) != null) {
                    present.put(keys.get(i), values.get(i));
                }
            }
            return present;
        });
    }

    @Override
    public CompletionStage<Void> set(Jedis jedis, String key, byte[] value, Duration ttl) {
        return call(() -> {
            if (ttl.isZero()) {
                jedis.set(bytes(key), value);
            }
            else {
                jedis.set(bytes(key), value, SetParams.setParams().px(RedisScripts.millis(ttl)));
            }
            return null;
        });
    }

    @Override
    public CompletionStage<Boolean> add(Jedis jedis, String key, byte[] value, Duration ttl) {
        SetParams params = ttl.isZero() ? SetParams.setParams().nx() : SetParams.setParams().nx().px(RedisScripts.millis(ttl));
        return call(() -> "OK".equals(jedis.set(bytes(key), value, params)));
    }

    @Override
    public CompletionStage<Boolean> replace(Jedis jedis, String key, byte[] value, Duration ttl) {
        SetParams params = ttl.isZero() ? SetParams.setParams().xx() : SetParams.setParams().xx().px(RedisScripts.millis(ttl));
        return call(() -> "OK".equals(jedis.set(bytes(key), value, params)));
    }

    @Override
    public CompletionStage<Boolean> delete(Jedis jedis, String key) {
        return call(() -> jedis.del(bytes(key)) > 0);
    }

    @Override
    public CompletionStage<@Nullable CasValue<byte[]>> gets(Jedis jedis, String key) {
        return call(() -> {
            byte[] value = jedis.get(bytes(key));
            return value == null ? null : new CasValue<>(value, CasToken.ofDigest("redis", key, RedisScript.sha1Hex(value)));
        });
    }

    @Override
    public CompletionStage<CasResult> cas(Jedis jedis, String key, CasToken token, byte[] value, Duration ttl) {
        byte[] digest = token.digest().getBytes(StandardCharsets.US_ASCII);
        return call(() -> RedisScripts.casResult(run(jedis, RedisScripts.COMPARE_AND_SET, key, digest, value,
                RedisScripts.ttlArgument(ttl))));
    }

    @Override
    public CompletionStage<Long> incr(Jedis jedis, String key, long delta) {
        return call(() -> jedis.incrBy(bytes(key), delta));
    }

    @Override
    public CompletionStage<Long> decr(Jedis jedis, String key, long delta) {
        return call(() -> jedis.decrBy(bytes(key), delta));
    }

    @Override
    public CompletionStage<Boolean> exists(Jedis jedis, String key) {
        return call(() -> jedis.exists(bytes(key)));
    }

    @Override
    public CompletionStage<Boolean> touch(Jedis jedis, String key, Duration ttl) {
        if (!ttl.isZero()) {
            return call(() -> jedis.pexpire(bytes(key), RedisScripts.millis(ttl)) == 1L);
        }
        return call(() -> run(jedis, RedisScripts.TOUCH, key, RedisScripts.NO_EXPIRY) == 1L);
    }

    /** EVALSHA, and EVAL (which caches the script) when the server does not know it yet. */
    private static Long run(Jedis jedis, RedisScript script, String key, byte[]... arguments) {
        byte[][] keyAndArguments = new byte[arguments.length + 1][];
        keyAndArguments[0] = bytes(key);
        System.arraycopy(arguments, 0, keyAndArguments, 1, arguments.length);
        try {
            return (Long) jedis.evalsha(bytes(script.sha()), 1, keyAndArguments);
        }
        catch (JedisNoScriptException ex) {
            return (Long) jedis.eval(bytes(script.body()), 1, keyAndArguments);
        }
    }

    private <T extends @Nullable Object> CompletionStage<T> call(Supplier<T> command) {
        try {
            return CompletableFuture.completedFuture(command.get());
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(translate(ex));
        }
    }

    private CacheException translate(RuntimeException failure) {
        String detail = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        String refusal = this.authentication != null ? RedisAuthentication.refusal(failure) : null;
        if (refusal != null) {
            return this.authentication.refused(refusal, "", failure);
        }
        if (failure instanceof JedisConnectionException && failure.getCause() instanceof SocketTimeoutException) {
            return new CacheTimeoutException("Redis at " + this.address + " did not answer in time: " + detail, failure);
        }
        if (failure instanceof JedisConnectionException) {
            return new CacheConnectionException("Redis at " + this.address + " is unreachable: " + detail, failure);
        }
        if (failure instanceof JedisDataException) {
            return new CacheServerException("Redis at " + this.address + " answered with an error: " + detail, failure);
        }
        return new CacheException("Redis call to " + this.address + " failed: " + detail, failure);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
