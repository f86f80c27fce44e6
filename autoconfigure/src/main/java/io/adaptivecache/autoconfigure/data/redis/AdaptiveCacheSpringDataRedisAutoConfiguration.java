package io.adaptivecache.autoconfigure.data.redis;

import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheSpringDataRedisProperties;
import io.adaptivecache.autoconfigure.InvalidAdaptiveCachePropertyException;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.spring.data.redis.AdaptiveRedisConnectionFactory;
import io.lettuce.core.RedisClient;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;

/**
 * A Spring Data Redis {@link RedisConnectionFactory} over the Redis template's connections, when
 * {@code adaptive-cache.redis.spring-data.enabled} is {@code true}: Spring Boot's
 * {@code RedisTemplate} and {@code StringRedisTemplate} (and what is built on them) then run on
 * the template's strategy. Runs before Spring Boot's Redis auto-configuration, whose own
 * connection factory backs off, and backs off itself when the application defines a
 * {@code RedisConnectionFactory}: an application's own bean always wins, as everywhere in Boot.
 */
@AutoConfiguration(after = AdaptiveCacheAutoConfiguration.class,
        beforeName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({ RedisConnectionFactory.class, LettuceConnection.class, RedisClient.class })
@ConditionalOnBooleanProperty(name = AdaptiveCacheSpringDataRedisProperties.PREFIX + ".enabled")
@EnableConfigurationProperties(AdaptiveCacheSpringDataRedisProperties.class)
public final class AdaptiveCacheSpringDataRedisAutoConfiguration {

    private static final String ENABLED = AdaptiveCacheSpringDataRedisProperties.PREFIX + ".enabled";

    /**
     * The factory over the Redis template's connections.
     * @param template the Redis template
     * @return the factory
     * @throws InvalidAdaptiveCachePropertyException if the template cannot lend Lettuce connections (a cluster, a Jedis pool)
     */
    @Bean
    @ConditionalOnMissingBean(RedisConnectionFactory.class)
    @ConditionalOnBean(name = AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    AdaptiveRedisConnectionFactory redisConnectionFactory(
            @Qualifier(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE) ManagedCacheTemplate template) {
        try {
            // Made from the template, the factory starts it if a Spring Data command comes while the context is built.
            return new AdaptiveRedisConnectionFactory(template);
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidAdaptiveCachePropertyException(ENABLED, true, "the Spring Data Redis connection factory runs on the Redis "
                    + "template's Lettuce connections, to a standalone server: " + ex.getMessage()
                    + " (for a Jedis pool, set adaptive-cache.redis.pooled-driver=lettuce or leave it unset)");
        }
    }
}
