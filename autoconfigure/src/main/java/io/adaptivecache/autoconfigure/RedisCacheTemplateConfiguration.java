package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.redis.AbstractRedisTemplateBuilder;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.redis.RedisTransport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.unit.DataSize;

/** The Redis template, when lettuce-core is present. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisClient.class)
@ConditionalOnBooleanProperty(name = "adaptive-cache.redis.enabled", matchIfMissing = true)
class RedisCacheTemplateConfiguration {

    private static final String PREFIX = "adaptive-cache.redis";

    @Bean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    @ConditionalOnMissingBean(name = AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    DefaultCacheTemplate<?> redisCacheTemplate(AdaptiveCacheProperties properties, Environment environment,
            ObjectProvider<RedisClientOptionsCustomizer> optionsCustomizers,
            ObjectProvider<RedisClientResourcesCustomizer> resourcesCustomizers,
            ObjectProvider<CachePoolCustomizer> poolCustomizers, ObjectProvider<CacheCallGuards> guards,
            ObjectProvider<SslBundles> sslBundles) {
        AdaptiveCacheProperties.Redis redis = properties.getRedis();
        Binder binder = Binder.get(environment);
        String bundleName = sslBundleName(redis, binder);
        List<RedisURI> clusterNodes = RedisClusterSettings.nodes(redis, binder, bundleName != null);
        AbstractRedisTemplateBuilder<?> builder = clusterNodes.isEmpty() ? standalone(redis, binder, bundleName, sslBundles)
                : RedisClusterSettings.builder(redis, binder, clusterNodes);
        if (!clusterNodes.isEmpty()) {
            pooledDriver(redis, true);
        }
        builder.name("redis");
        builder.credentialsSource(RedisCredentialSettings.source(redis, binder, !clusterNodes.isEmpty()));
        RedisCredentialSettings.warnIgnoredByUrl(redis);
        builder.transport(transport(redis));
        builder.strategy(StrategySpecs.initial(PREFIX, redis));
        builder.poolConfig(PoolCustomizers.forTemplate("redis", poolCustomizers));
        builder.clientOptions(options -> sslOptions(bundleName, sslBundles).ifPresent(options::sslOptions));
        builder.clientOptions(options -> optionsCustomizers.orderedStream().forEach(customizer -> customizer.customize(options)));
        builder.clientResources(resources -> resourcesCustomizers.orderedStream().forEach(customizer -> customizer.customize(resources)));
        resilience(builder, "redis", PREFIX, redis, guards);
        positive(PREFIX + ".timeout", redis.getTimeout(), builder::commandTimeout);
        positive(PREFIX + ".connect-timeout", redis.getConnectTimeout(), builder::connectTimeout);
        positive(PREFIX + ".drain-timeout", redis.getDrainTimeout(), builder::drainTimeout);
        positive(PREFIX + ".max-reconnect-delay", redis.getMaxReconnectDelay(), builder::maxReconnectDelay);
        StrategySpecs.property(PREFIX + ".request-queue-size", redis.getRequestQueueSize(), "it must be at least 1",
                () -> builder.requestQueueSize(redis.getRequestQueueSize()));
        builder.maxKeyBytes(bytes(PREFIX + ".max-key-size", redis.getMaxKeySize()));
        builder.maxValueBytes(bytes(PREFIX + ".max-value-size", redis.getMaxValueSize()));
        return builder.build();
    }

    private static RedisCacheTemplates.Builder standalone(AdaptiveCacheProperties.Redis redis, Binder binder, String bundleName,
            ObjectProvider<SslBundles> sslBundles) {
        RedisDriver driver = pooledDriver(redis, false);
        RedisCacheTemplates.Builder builder = RedisCacheTemplates.builder().uri(withSsl(redisUri(redis, binder), bundleName))
                .pooledDriver(driver);
        if (driver == RedisDriver.JEDIS && bundleName != null) {
            // The same bundle for Jedis's TLS sockets as for Lettuce's.
            builder.jedisSslContext(sslBundle(bundleName, sslBundles).createSslContext());
        }
        return builder;
    }

    /**
     * The POOLED driver asked for, refused here when Jedis is missing or the template is a cluster's; unset, Jedis where
     * it can serve (its blocking pool is the fastest path for few callers; ...Async calls stay on Lettuce).
     */
    private static RedisDriver pooledDriver(AdaptiveCacheProperties.Redis redis, boolean cluster) {
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
    private static RedisTransport transport(AdaptiveCacheProperties.Redis redis) {
        RedisTransport transport = redis.getTransport();
        if (transport == null) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".transport", null, "it must be auto, nio, epoll or io_uring");
        }
        String unavailable = transport.unavailability();
        if (unavailable != null) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".transport", transport.label(),
                    unavailable + "; auto falls back to what the machine supports");
        }
        return transport;
    }

    /**
     * The URL wins; then host, port and the rest; when none of those is given and the
     * application configures Spring Data Redis, its {@code spring.data.redis.*} settings.
     */
    static RedisURI redisUri(AdaptiveCacheProperties.Redis redis, Binder binder) {
        if (redis.getUrl() != null) {
            RedisURI uri = parseUrl(PREFIX + ".url", redis.getUrl());
            if (redis.getClientName() != null) {
                uri.setClientName(redis.getClientName());
            }
            return uri;
        }
        if (!redis.hasConnectionSettings()) {
            String springUrl = binder.bind("spring.data.redis.url", String.class).orElse(null);
            if (springUrl != null) {
                return parseUrl("spring.data.redis.url", springUrl);
            }
            String springHost = binder.bind("spring.data.redis.host", String.class).orElse(null);
            Integer springPort = binder.bind("spring.data.redis.port", Integer.class).orElse(null);
            if (springHost != null || springPort != null) {
                return build(springHost, springPort, binder.bind("spring.data.redis.username", String.class).orElse(null),
                        binder.bind("spring.data.redis.password", String.class).orElse(null),
                        binder.bind("spring.data.redis.database", Integer.class).orElse(null),
                        binder.bind("spring.data.redis.ssl.bundle", String.class).isBound() ? Boolean.TRUE
                                : binder.bind("spring.data.redis.ssl.enabled", Boolean.class).orElse(null),
                        binder.bind("spring.data.redis.client-name", String.class).orElse(null));
            }
        }
        return build(redis.getHost(), redis.getPort(), redis.getUsername(), redis.getPassword(), redis.getDatabase(),
                redis.getSsl().getEnabled(), redis.getClientName());
    }

    /** The bundle named under adaptive-cache.redis.ssl, or Spring Data Redis's when its settings are the ones reused. */
    private static String sslBundleName(AdaptiveCacheProperties.Redis redis, Binder binder) {
        if (redis.getSsl().getBundle() != null || redis.hasConnectionSettings()) {
            return redis.getSsl().getBundle();
        }
        return binder.bind("spring.data.redis.ssl.bundle", String.class).orElse(null);
    }

    private static RedisURI withSsl(RedisURI uri, String bundleName) {
        if (bundleName != null) {
            uri.setSsl(true);
        }
        return uri;
    }

    private static SslBundle sslBundle(String bundleName, ObjectProvider<SslBundles> sslBundles) {
        SslBundles bundles = sslBundles.getIfAvailable();
        if (bundles == null) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".ssl.bundle", bundleName,
                    "SSL bundles are not available (is SslAutoConfiguration excluded?)");
        }
        try {
            return bundles.getBundle(bundleName);
        }
        catch (NoSuchSslBundleException ex) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".ssl.bundle", bundleName,
                    "no SSL bundle of that name is configured under spring.ssl.bundle.*");
        }
    }

    /** Lettuce's TLS settings from an SSL bundle, as Spring Boot's own Lettuce configuration makes them. */
    private static java.util.Optional<SslOptions> sslOptions(String bundleName, ObjectProvider<SslBundles> sslBundles) {
        if (bundleName == null) {
            return java.util.Optional.empty();
        }
        SslBundle bundle = sslBundle(bundleName, sslBundles);
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider()
                .keyManager(bundle.getManagers().getKeyManagerFactory())
                .trustManager(bundle.getManagers().getTrustManagerFactory());
        if (bundle.getOptions().getCiphers() != null) {
            ssl.cipherSuites(bundle.getOptions().getCiphers());
        }
        if (bundle.getOptions().getEnabledProtocols() != null) {
            ssl.protocols(bundle.getOptions().getEnabledProtocols());
        }
        return java.util.Optional.of(ssl.build());
    }

    static RedisURI build(String host, Integer port, String username, String password, Integer database, Boolean ssl,
            String clientName) {
        int resolvedPort = port != null ? port : RedisURI.DEFAULT_REDIS_PORT;
        if (resolvedPort < 1 || resolvedPort > 65535) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".port", resolvedPort, "it must be between 1 and 65535");
        }
        if (database != null && database < 0) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".database", database, "it must be 0 or more");
        }
        RedisURI.Builder uri = RedisURI.builder().withHost(host != null ? host : "localhost").withPort(resolvedPort)
                .withDatabase(database != null ? database : 0).withSsl(Boolean.TRUE.equals(ssl));
        if (password != null) {
            if (username != null) {
                uri.withAuthentication(username, password);
            }
            else {
                uri.withPassword(password.toCharArray());
            }
        }
        if (clientName != null) {
            uri.withClientName(clientName);
        }
        return uri.build();
    }

    private static RedisURI parseUrl(String property, String url) {
        try {
            RedisURI uri = RedisURI.create(url);
            if (uri.getHost() == null || uri.getHost().isBlank()) {
                throw new IllegalArgumentException("no host");
            }
            return uri;
        }
        catch (RuntimeException ex) {
            throw new InvalidAdaptiveCachePropertyException(property, withoutCredentials(url),
                    "it must be a Redis URL such as redis://[user:password@]host:port[/database] or rediss://... for TLS ("
                            + withoutCredentials(String.valueOf(ex.getMessage())) + ")");
        }
    }

    /** A URL as it may be shown: any user-info part (user:password@) replaced by ****. */
    static String withoutCredentials(String url) {
        return url.replaceAll("(?<=://)[^@/]*@", "****@");
    }

    /** Applies a template's resilience properties: its guard and its failure mode. */
    static void resilience(io.adaptivecache.command.AbstractCacheTemplateBuilder<?> builder, String template, String prefix,
            AdaptiveCacheProperties.TemplateSettings settings, ObjectProvider<CacheCallGuards> guards) {
        builder.guard(guards.getIfAvailable(() -> CacheCallGuards.WITHOUT_RESILIENCE4J).forTemplate(template, prefix, settings));
        if (settings.getResilience().getOnFailure() == null) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".resilience.on-failure", null, "it must be fail-fast or degrade");
        }
        builder.onFailure(settings.getResilience().getOnFailure());
    }

    static void positive(String property, Duration value, java.util.function.Consumer<Duration> setter) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be a positive duration, such as 500ms or 2s");
        }
        setter.accept(value);
    }

    static int bytes(String property, DataSize size) {
        if (size == null || size.toBytes() < 1 || size.toBytes() > Integer.MAX_VALUE) {
            throw new InvalidAdaptiveCachePropertyException(property, size, "it must be between 1B and 2GB");
        }
        return (int) size.toBytes();
    }
}
