package io.adaptivecache.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of the Spring Data Redis connection factory over the Redis template's connections
 * ({@code adaptive-cache.redis.spring-data}).
 */
@ConfigurationProperties(AdaptiveCacheSpringDataRedisProperties.PREFIX)
public class AdaptiveCacheSpringDataRedisProperties {

    /** The prefix of these properties. */
    public static final String PREFIX = "adaptive-cache.redis.spring-data";

    /**
     * Whether to register a Spring Data RedisConnectionFactory over the Redis template's
     * connections, so that RedisTemplate, StringRedisTemplate, repositories and Spring Session
     * run on its strategy and follow its switches. Backs off when the application defines a
     * RedisConnectionFactory of its own. Standalone Redis only; POOLED then runs on Lettuce.
     */
    private boolean enabled;

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
