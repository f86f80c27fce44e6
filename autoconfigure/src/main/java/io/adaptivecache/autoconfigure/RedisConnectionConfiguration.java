package io.adaptivecache.autoconfigure;

import io.lettuce.core.RedisClient;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * The Redis template's connection, resolved once ({@link ResolvedRedisConnection}) for the template
 * and its near caches' invalidation source. Not tied to {@code adaptive-cache.redis.enabled}: an
 * application that replaces the template with its own bean may still have near caches, whose
 * invalidation source is built from the properties as before.
 *
 * <p>The precedence: {@code adaptive-cache.redis.*} connection settings; else a Spring Boot
 * {@code DataRedisConnectionDetails} bean ({@code @ServiceConnection}, Docker Compose, the
 * application's own); else {@code spring.data.redis.*}; else localhost.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisClient.class)
class RedisConnectionConfiguration {

    private static final String DATA_REDIS_CONNECTION_DETAILS = "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails";

    /**
     * Lazy: resolved when the template or the invalidation source first needs it, so that an
     * application whose own template bean replaces the Redis template, with no near cache, has its
     * {@code adaptive-cache.redis} and {@code spring.data.redis} connection settings neither read
     * nor checked, as before.
     */
    @Bean
    @Lazy
    ResolvedRedisConnection adaptiveCacheRedisConnection(AdaptiveCacheRedisProperties redis, Environment environment,
            BeanFactory beanFactory) {
        if (!redis.hasConnectionSettings()
                && ClassUtils.isPresent(DATA_REDIS_CONNECTION_DETAILS, RedisConnectionConfiguration.class.getClassLoader())) {
            ResolvedRedisConnection fromDetails = DataRedisConnectionDetailsReader.read(beanFactory, redis);
            if (fromDetails != null) {
                return fromDetails;
            }
        }
        return ResolvedRedisConnection.resolve(redis, Binder.get(environment));
    }
}
