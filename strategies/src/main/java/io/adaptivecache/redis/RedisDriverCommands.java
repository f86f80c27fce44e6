package io.adaptivecache.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.backend.CacheCommands;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;

/**
 * Sends each command to the driver of the connection it runs on: Lettuce's commands for a
 * Lettuce connection, Jedis's for a Jedis one. The Jedis commands are only created (and Jedis
 * only loaded) for a template whose POOLED driver is Jedis.
 */
final class RedisDriverCommands implements CacheCommands<RedisConnection> {

    private final CacheCommands<StatefulRedisConnection<String, byte[]>> lettuce;
    // Only for a template whose POOLED driver is Jedis.
    private final @Nullable CacheCommands<redis.clients.jedis.Jedis> jedis;

    RedisDriverCommands(CacheCommands<StatefulRedisConnection<String, byte[]>> lettuce,
            @Nullable CacheCommands<redis.clients.jedis.Jedis> jedis) {
        this.lettuce = lettuce;
        this.jedis = jedis;
    }

    @Override
    public CompletionStage<byte @Nullable []> get(RedisConnection connection, String key) {
        return connection.jedis() != null ? this.jedis.get(connection.jedis(), key) : this.lettuce.get(connection.lettuce(), key);
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(RedisConnection connection, List<String> keys) {
        return connection.jedis() != null ? this.jedis.getAll(connection.jedis(), keys)
                : this.lettuce.getAll(connection.lettuce(), keys);
    }

    @Override
    public CompletionStage<Void> set(RedisConnection connection, String key, byte[] value, Duration ttl) {
        return connection.jedis() != null ? this.jedis.set(connection.jedis(), key, value, ttl)
                : this.lettuce.set(connection.lettuce(), key, value, ttl);
    }

    @Override
    public CompletionStage<Boolean> add(RedisConnection connection, String key, byte[] value, Duration ttl) {
        return connection.jedis() != null ? this.jedis.add(connection.jedis(), key, value, ttl)
                : this.lettuce.add(connection.lettuce(), key, value, ttl);
    }

    @Override
    public CompletionStage<Boolean> replace(RedisConnection connection, String key, byte[] value, Duration ttl) {
        return connection.jedis() != null ? this.jedis.replace(connection.jedis(), key, value, ttl)
                : this.lettuce.replace(connection.lettuce(), key, value, ttl);
    }

    @Override
    public CompletionStage<Boolean> delete(RedisConnection connection, String key) {
        return connection.jedis() != null ? this.jedis.delete(connection.jedis(), key) : this.lettuce.delete(connection.lettuce(), key);
    }

    @Override
    public CompletionStage<@Nullable CasValue<byte[]>> gets(RedisConnection connection, String key) {
        return connection.jedis() != null ? this.jedis.gets(connection.jedis(), key) : this.lettuce.gets(connection.lettuce(), key);
    }

    @Override
    public CompletionStage<CasResult> cas(RedisConnection connection, String key, CasToken token, byte[] value, Duration ttl) {
        return connection.jedis() != null ? this.jedis.cas(connection.jedis(), key, token, value, ttl)
                : this.lettuce.cas(connection.lettuce(), key, token, value, ttl);
    }

    @Override
    public CompletionStage<Long> incr(RedisConnection connection, String key, long delta) {
        return connection.jedis() != null ? this.jedis.incr(connection.jedis(), key, delta)
                : this.lettuce.incr(connection.lettuce(), key, delta);
    }

    @Override
    public CompletionStage<Long> decr(RedisConnection connection, String key, long delta) {
        return connection.jedis() != null ? this.jedis.decr(connection.jedis(), key, delta)
                : this.lettuce.decr(connection.lettuce(), key, delta);
    }

    @Override
    public CompletionStage<Boolean> touch(RedisConnection connection, String key, Duration ttl) {
        return connection.jedis() != null ? this.jedis.touch(connection.jedis(), key, ttl)
                : this.lettuce.touch(connection.lettuce(), key, ttl);
    }
}
