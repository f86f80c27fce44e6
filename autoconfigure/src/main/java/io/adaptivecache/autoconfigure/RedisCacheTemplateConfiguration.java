package io.adaptivecache.autoconfigure;

import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.AbstractRedisTemplateBuilder;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.redis.RedisTransport;
import io.lettuce.core.RedisClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/** The Redis template, when lettuce-core is present. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisClient.class)
@ConditionalOnBooleanProperty(name = "adaptive-cache.redis.enabled", matchIfMissing = true)
class RedisCacheTemplateConfiguration {

    private static final String PREFIX = "adaptive-cache.redis";

    private static final Log logger = LogFactory.getLog(RedisCacheTemplateConfiguration.class);

    @Bean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    @ConditionalOnMissingBean(name = AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    ManagedCacheTemplate redisCacheTemplate(AdaptiveCacheRedisProperties redis, ResolvedRedisConnection connection,
            ObjectProvider<RedisClientOptionsCustomizer> optionsCustomizers,
            ObjectProvider<RedisClientResourcesCustomizer> resourcesCustomizers,
            ObjectProvider<CachePoolCustomizer> poolCustomizers, ObjectProvider<CacheCallGuards> guards,
            AdaptiveCacheSwitchers switchers,
            ObjectProvider<CallInterceptor> interceptors,
            ObjectProvider<SslBundles> sslBundles, Environment environment, TemplateServerSources sources) {
        AbstractRedisTemplateBuilder<?> builder = connection.isCluster() ? RedisClusterSettings.builder(redis, connection)
                : standalone(redis, connection, sslBundles, lendsToSpringData(environment));
        if (connection.isCluster()) {
            pooledDriver(redis, true);
        }
        // The properties were checked when bound; what is checked here depends on the classpath, the machine or the context.
        TemplateBuilders.applyCommon(builder, redis, switchers, guards, poolCustomizers, interceptors);
        builder.credentialsSource(connection.credentialsSource());
        builder.transport(transport(redis));
        builder.clientOptions(options -> connection.sslOptions(sslBundles).ifPresent(options::sslOptions));
        builder.clientOptions(options -> optionsCustomizers.orderedStream().forEach(customizer -> customizer.customize(options)));
        builder.clientResources(resources -> resourcesCustomizers.orderedStream().forEach(customizer -> customizer.customize(resources)));
        builder.commandTimeout(redis.getTimeout());
        builder.maxReconnectDelay(redis.getMaxReconnectDelay());
        builder.requestQueueSize(redis.getRequestQueueSize());
        builder.coalesceWrites(redis.isCoalesceWrites());
        builder.maxKeyBytes((int) redis.getMaxKeySize().toBytes());
        builder.maxValueBytes((int) redis.getMaxValueSize().toBytes());
        // Once per template at startup: the server it reaches and where that came from, never the credentials.
        logger.info("adaptive-cache template '" + redis.templateName() + "' connects to " + connection.describe() + ", from "
                + connection.source());
        ManagedCacheTemplate template = builder.build();
        sources.record(template, connection.source(), connection.fromConnectionDetails());
        return template;
    }

    private static RedisCacheTemplates.Builder standalone(AdaptiveCacheRedisProperties redis, ResolvedRedisConnection connection,
            ObjectProvider<SslBundles> sslBundles, boolean springData) {
        RedisDriver driver = springData ? springDataDriver(redis) : pooledDriver(redis, false);
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

    /**
     * Whether the Spring Data Redis connection factory will run on this template's connections, which must then be
     * Lettuce's: its auto-configuration applies only when Spring Data Redis is on the classpath.
     */
    private static boolean lendsToSpringData(Environment environment) {
        return environment.getProperty(AdaptiveCacheSpringDataRedisProperties.PREFIX + ".enabled", Boolean.class, false)
                && ClassUtils.isPresent("org.springframework.data.redis.connection.RedisConnectionFactory",
                        RedisCacheTemplateConfiguration.class.getClassLoader());
    }

    /** With the Spring Data factory, POOLED runs on Lettuce: unset means Lettuce, and Jedis asked for is refused. */
    private static RedisDriver springDataDriver(AdaptiveCacheRedisProperties redis) {
        if (redis.getPooledDriver() == RedisDriver.JEDIS) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".pooled-driver", "jedis",
                    "the Spring Data Redis connection factory (" + AdaptiveCacheSpringDataRedisProperties.PREFIX
                            + ".enabled=true) runs on the template's Lettuce connections; use lettuce or leave it unset");
        }
        return RedisDriver.LETTUCE;
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
