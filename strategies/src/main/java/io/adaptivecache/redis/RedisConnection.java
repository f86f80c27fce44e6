package io.adaptivecache.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

/**
 * One connection of a Redis template: a Lettuce connection (thread-safe; SINGLE, MULTI and, by
 * default, POOLED) or a Jedis connection (blocking, one caller at a time; POOLED with
 * {@link RedisDriver#JEDIS}). Exactly one of the two is set.
 */
public final class RedisConnection {

    private final @Nullable StatefulRedisConnection<String, byte[]> lettuce;
    private final @Nullable Jedis jedis;

    private RedisConnection(@Nullable StatefulRedisConnection<String, byte[]> lettuce, @Nullable Jedis jedis) {
        this.lettuce = lettuce;
        this.jedis = jedis;
    }

    static RedisConnection of(StatefulRedisConnection<String, byte[]> lettuce) {
        return new RedisConnection(lettuce, null);
    }

    static RedisConnection of(Jedis jedis) {
        return new RedisConnection(null, jedis);
    }

    /**
     * The Lettuce connection, for a template's SHARED strategies and Lettuce-pooled ones.
     * @return the connection, or {@code null} if this is a Jedis connection
     */
    public @Nullable StatefulRedisConnection<String, byte[]> lettuce() {
        return this.lettuce;
    }

    /**
     * The Jedis connection of a Jedis-pooled template; not thread-safe.
     * @return the connection, or {@code null} if this is a Lettuce connection
     */
    public @Nullable Jedis jedis() {
        return this.jedis;
    }

    /**
     * The driver behind this connection.
     * @return LETTUCE or JEDIS
     */
    public RedisDriver driver() {
        return this.jedis != null ? RedisDriver.JEDIS : RedisDriver.LETTUCE;
    }

    @Override
    public String toString() {
        return driver() + "[" + (this.jedis != null ? this.jedis : this.lettuce) + "]";
    }
}
