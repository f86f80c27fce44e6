package io.adaptivecache.autoconfigure;

import java.time.Duration;

import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.redis.RedisInvalidations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Starts the Redis invalidation source of the near caches: one more connection to the server the
 * Redis template uses (the same URL or host, credentials, database and client settings), on
 * which the server reports writes to the near caches' prefixes.
 */
public final class RedisInvalidationSources {

    private RedisInvalidationSources() {
    }

    /**
     * Starts a source on the Redis template's server.
     * @param redis the Redis template's properties
     * @param environment where Spring Data Redis's settings are read when the template reuses them
     * @param heartbeatInterval how often the invalidation connection is pinged
     * @param heartbeatTimeout how long a ping may take; with the interval, the staleness bound
     * @return the source, connecting in the background
     */
    public static InvalidationSource start(AdaptiveCacheRedisProperties redis, Environment environment, Duration heartbeatInterval,
            Duration heartbeatTimeout) {
        return RedisInvalidations.builder().uri(RedisCacheTemplateConfiguration.redisUri(redis, Binder.get(environment)))
                .name("redis").heartbeatInterval(heartbeatInterval).heartbeatTimeout(heartbeatTimeout)
                .connectTimeout(redis.getConnectTimeout()).maxReconnectDelay(redis.getMaxReconnectDelay()).start();
    }
}
