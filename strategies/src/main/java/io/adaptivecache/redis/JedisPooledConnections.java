package io.adaptivecache.redis;

import java.time.Duration;

import javax.net.ssl.SSLContext;

import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.strategy.BlockingPoolStrategies;
import io.adaptivecache.strategy.StrategyFactory;
import redis.clients.jedis.Jedis;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * The connections of a Redis template whose POOLED strategies run on Jedis
 * ({@link RedisDriver#JEDIS}): Lettuce connections, thread-safe, for SINGLE, MULTI and the async
 * lane (this factory); Jedis connections, blocking, for POOLED ({@link #strategies()}). Each comes
 * bound to its driver's commands. Built only for such a template, and the only class that creates
 * Jedis's connections and commands, so that Jedis is loaded for no other.
 */
final class JedisPooledConnections extends BoundConnection.Factory<StatefulRedisConnection<String, byte[]>> {

    private final JedisConnections jedis;
    private final CacheCommands<Jedis> jedisCommands;

    /**
     * @param lettuce the template's Lettuce connections
     * @param lettuceCommands the commands on them
     * @param uri where to connect (its command timeout is also Jedis's socket timeout)
     * @param connectTimeout how long connecting a Jedis connection may take
     * @param sslContext the TLS context of Jedis connections to a {@code rediss://} URI; {@code null} for the JVM's default
     * @param authentication reads the server's refusals of the credentials
     */
    JedisPooledConnections(RedisConnections lettuce, CacheCommands<StatefulRedisConnection<String, byte[]>> lettuceCommands,
            RedisURI uri, Duration connectTimeout, SSLContext sslContext, RedisAuthentication authentication) {
        super(lettuce, lettuceCommands);
        this.jedis = new JedisConnections(uri, connectTimeout, uri.getTimeout(), lettuce.describe(), sslContext);
        this.jedis.authentication(authentication);
        this.jedisCommands = CacheCommands.of(new JedisCacheCommands(lettuce.describe(), authentication));
    }

    /**
     * The template's strategies: SINGLE and MULTI on Lettuce, POOLED on Jedis with a Lettuce async lane.
     * @return the strategies
     */
    StrategyFactory<BoundConnection<?>> strategies() {
        // The Jedis connections a POOLED strategy lends to one caller at a time.
        return new BlockingPoolStrategies<>(this, new BoundConnection.Factory<>(this.jedis, this.jedisCommands));
    }
}
