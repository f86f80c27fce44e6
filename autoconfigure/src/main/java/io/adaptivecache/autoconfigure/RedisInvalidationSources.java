package io.adaptivecache.autoconfigure;

import java.time.Duration;

import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.redis.tracking.RedisInvalidations;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;

/**
 * Starts the Redis invalidation source of the near caches: one more connection to the server the
 * Redis template uses (the same {@link ResolvedRedisConnection}: URL or host, credentials,
 * database and TLS; and the same transport and client settings), on which the server reports
 * writes to the near caches' prefixes. It is built from the properties: a Redis template bean of
 * the application's own that reaches another server or database is found out by the source's
 * marker check, and its near caches then read from the server instead of serving locally.
 */
public final class RedisInvalidationSources {

    private RedisInvalidationSources() {
    }

    /**
     * Starts a source on the Redis template's server, with the template's TLS: the same SSL bundle
     * ({@code adaptive-cache.redis.ssl.bundle}, or {@code spring.data.redis.ssl.bundle} when
     * Spring Data Redis's settings are the ones reused), which also turns TLS on.
     * @param connection the Redis template's connection, as resolved for the template
     * @param redis the Redis template's properties (timeouts and transport)
     * @param sslBundles the application's SSL bundles, looked up only when a bundle is named
     * @param heartbeatInterval how often the invalidation connection is pinged
     * @param heartbeatTimeout how long a ping may take; with the interval, the staleness bound
     * @return the source, connecting in the background
     * @throws InvalidAdaptiveCachePropertyException if the named bundle does not exist
     */
    public static InvalidationSource start(ResolvedRedisConnection connection, AdaptiveCacheRedisProperties redis,
            ObjectProvider<SslBundles> sslBundles, Duration heartbeatInterval, Duration heartbeatTimeout) {
        RedisInvalidations.Builder builder = RedisInvalidations.builder().uri(connection.standaloneUri())
                .name("redis").heartbeatInterval(heartbeatInterval).heartbeatTimeout(heartbeatTimeout)
                .connectTimeout(redis.getConnectTimeout()).maxReconnectDelay(redis.getMaxReconnectDelay())
                .transport(redis.getTransport());
        connection.sslOptions(sslBundles).ifPresent(builder::sslOptions);
        return builder.start();
    }
}
