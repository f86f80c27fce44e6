package io.adaptivecache.autoconfigure;

import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.AbstractRedisTemplateBuilder;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.redis.RedisTransport;
import io.lettuce.core.RedisClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/** The Redis template, when lettuce-core is present. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisClient.class)
@ConditionalOnBooleanProperty(name = "adaptive-cache.redis.enabled", matchIfMissing = true)
class RedisCacheTemplateConfiguration {

    private static final String PREFIX = "adaptive-cache.redis";

    @Bean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    @ConditionalOnMissingBean(name = AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    ManagedCacheTemplate redisCacheTemplate(AdaptiveCacheRedisProperties redis, ResolvedRedisConnection connection,
            ObjectProvider<RedisClientOptionsCustomizer> optionsCustomizers,
            ObjectProvider<RedisClientResourcesCustomizer> resourcesCustomizers,
            ObjectProvider<CachePoolCustomizer> poolCustomizers, ObjectProvider<CacheCallGuards> guards,
            ObjectProvider<CallInterceptor> interceptors,
            ObjectProvider<SslBundles> sslBundles) {
        AbstractRedisTemplateBuilder<?> builder = connection.isCluster() ? RedisClusterSettings.builder(redis, connection)
                : standalone(redis, connection, sslBundles);
        if (connection.isCluster()) {
            pooledDriver(redis, true);
        }
        // The properties were checked when bound; what is checked here depends on the classpath, the machine or the context.
        TemplateBuilders.applyCommon(builder, redis, guards, poolCustomizers, interceptors);
        builder.credentialsSource(connection.credentialsSource());
        builder.transport(transport(redis));
        builder.clientOptions(options -> connection.sslOptions(sslBundles).ifPresent(options::sslOptions));
        builder.clientOptions(options -> optionsCustomizers.orderedStream().forEach(customizer -> customizer.customize(options)));
        builder.clientResources(resources -> resourcesCustomizers.orderedStream().forEach(customizer -> customizer.customize(resources)));
        builder.commandTimeout(redis.getTimeout());
        builder.connectTimeout(redis.getConnectTimeout());
        builder.maxReconnectDelay(redis.getMaxReconnectDelay());
        builder.requestQueueSize(redis.getRequestQueueSize());
        builder.maxKeyBytes((int) redis.getMaxKeySize().toBytes());
        builder.maxValueBytes((int) redis.getMaxValueSize().toBytes());
        return builder.build();
    }

    private static RedisCacheTemplates.Builder standalone(AdaptiveCacheRedisProperties redis, ResolvedRedisConnection connection,
            ObjectProvider<SslBundles> sslBundles) {
        RedisDriver driver = pooledDriver(redis, false);
        RedisCacheTemplates.Builder builder = RedisCacheTemplates.builder().uri(connection.standaloneUri()).pooledDriver(driver);
        if (driver == RedisDriver.JEDIS) {
            // The same bundle for Jedis's TLS sockets as for Lettuce's.
            connection.sslContext(sslBundles).ifPresent(builder::jedisSslContext);
        }
        return builder;
    }

    /**
     * The POOLED driver asked for, refused here when Jedis is missing or the template is a cluster's; unset, Jedis where
     * it can serve (its blocking pool is the fastest path for few callers; ...Async calls stay on Lettuce).
     */
    private static RedisDriver pooledDriver(AdaptiveCacheRedisProperties redis, boolean cluster) {
        RedisDriver driver = redis.getPooledDriver();
        if (driver == null) {
            return !cluster && jedisPresent() ? RedisDriver.JEDIS : RedisDriver.LETTUCE;
        }
        if (driver == RedisDriver.JEDIS && cluster) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".pooled-driver", "jedis",
                    "the Jedis driver is not available for Redis Cluster; use lettuce");
        }
        if (driver == RedisDriver.JEDIS && !jedisPresent()) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".pooled-driver", "jedis",
                    "Jedis is not on the classpath; add redis.clients:jedis (the starter brings it)");
        }
        return driver;
    }

    private static boolean jedisPresent() {
        return ClassUtils.isPresent("redis.clients.jedis.Jedis", RedisCacheTemplateConfiguration.class.getClassLoader());
    }

    /** The transport asked for, refused here (naming the property) when the machine cannot give it. */
    private static RedisTransport transport(AdaptiveCacheRedisProperties redis) {
        RedisTransport transport = redis.getTransport();
        String unavailable = transport.unavailability();
        if (unavailable != null) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".transport", transport.label(),
                    unavailable + "; auto falls back to what the machine supports");
        }
        return transport;
    }
}
