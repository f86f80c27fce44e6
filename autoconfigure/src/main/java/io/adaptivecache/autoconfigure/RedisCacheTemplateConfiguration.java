package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.AbstractRedisTemplateBuilder;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.redis.RedisTransport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;
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

/** The Redis template, when lettuce-core is present. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisClient.class)
@ConditionalOnBooleanProperty(name = "adaptive-cache.redis.enabled", matchIfMissing = true)
class RedisCacheTemplateConfiguration {

    private static final String PREFIX = "adaptive-cache.redis";

    @Bean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    @ConditionalOnMissingBean(name = AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    ManagedCacheTemplate redisCacheTemplate(AdaptiveCacheRedisProperties redis, Environment environment,
            ObjectProvider<RedisClientOptionsCustomizer> optionsCustomizers,
            ObjectProvider<RedisClientResourcesCustomizer> resourcesCustomizers,
            ObjectProvider<CachePoolCustomizer> poolCustomizers, ObjectProvider<CacheCallGuards> guards,
            ObjectProvider<SslBundles> sslBundles) {
        Binder binder = Binder.get(environment);
        String bundleName = sslBundleName(redis, binder);
        List<RedisURI> clusterNodes = RedisClusterSettings.nodes(redis, binder, bundleName != null);
        AbstractRedisTemplateBuilder<?> builder = clusterNodes.isEmpty() ? standalone(redis, binder, bundleName, sslBundles)
                : RedisClusterSettings.builder(redis, binder, clusterNodes);
        if (!clusterNodes.isEmpty()) {
            pooledDriver(redis, true);
        }
        // The properties were checked when bound; what is checked here depends on the classpath, the machine or the context.
        TemplateBuilders.applyCommon(builder, redis, guards, poolCustomizers);
        builder.credentialsSource(RedisCredentialSettings.source(redis, binder, !clusterNodes.isEmpty()));
        RedisCredentialSettings.warnIgnoredByUrl(redis);
        builder.transport(transport(redis));
        builder.clientOptions(options -> sslOptions(bundleName, sslBundles).ifPresent(options::sslOptions));
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

    private static RedisCacheTemplates.Builder standalone(AdaptiveCacheRedisProperties redis, Binder binder,
            @Nullable String bundleName, ObjectProvider<SslBundles> sslBundles) {
        RedisDriver driver = pooledDriver(redis, false);
        RedisCacheTemplates.Builder builder = RedisCacheTemplates.builder().uri(standaloneUri(redis, binder)).pooledDriver(driver);
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

    /**
     * The URL wins; then host, port and the rest; when none of those is given and the
     * application configures Spring Data Redis, its {@code spring.data.redis.*} settings.
     */
    static RedisURI redisUri(AdaptiveCacheRedisProperties redis, Binder binder) {
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
                // Spring Data Redis's values, which this starter's binding did not check.
                if (springPort != null) {
                    PropertyRules.between("spring.data.redis.port", springPort, 1, 65535, "between 1 and 65535");
                }
                Integer springDatabase = binder.bind("spring.data.redis.database", Integer.class).orElse(null);
                if (springDatabase != null) {
                    PropertyRules.zeroOrMore("spring.data.redis.database", springDatabase, "");
                }
                return build(springHost, springPort, binder.bind("spring.data.redis.username", String.class).orElse(null),
                        binder.bind("spring.data.redis.password", String.class).orElse(null), springDatabase,
                        binder.bind("spring.data.redis.ssl.bundle", String.class).isBound() ? Boolean.TRUE
                                : binder.bind("spring.data.redis.ssl.enabled", Boolean.class).orElse(null),
                        binder.bind("spring.data.redis.client-name", String.class).orElse(null));
            }
        }
        return build(redis.getHost(), redis.getPort(), redis.getUsername(), redis.getPassword(), redis.getDatabase(),
                redis.getSsl().getEnabled(), redis.getClientName());
    }

    /**
     * The URI of the standalone template's server, TLS included: the one place both the template and its near caches'
     * invalidation source ({@link RedisInvalidationSources}) take it from, so that they cannot reach different servers.
     */
    static RedisURI standaloneUri(AdaptiveCacheRedisProperties redis, Binder binder) {
        return withSsl(redisUri(redis, binder), sslBundleName(redis, binder));
    }

    /** The bundle named under adaptive-cache.redis.ssl, or Spring Data Redis's when its settings are the ones reused. */
    static @Nullable String sslBundleName(AdaptiveCacheRedisProperties redis, Binder binder) {
        if (redis.getSsl().getBundle() != null || redis.hasConnectionSettings()) {
            return redis.getSsl().getBundle();
        }
        return binder.bind("spring.data.redis.ssl.bundle", String.class).orElse(null);
    }

    static RedisURI withSsl(RedisURI uri, @Nullable String bundleName) {
        if (bundleName != null) {
            uri.setSsl(true);
        }
        return uri;
    }

    static SslBundle sslBundle(String bundleName, ObjectProvider<SslBundles> sslBundles) {
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
    static java.util.Optional<SslOptions> sslOptions(@Nullable String bundleName, ObjectProvider<SslBundles> sslBundles) {
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

    static RedisURI build(@Nullable String host, @Nullable Integer port, @Nullable String username, @Nullable String password,
            @Nullable Integer database, @Nullable Boolean ssl, @Nullable String clientName) {
        // Ports and databases are checked where they are read: adaptive-cache.redis.* when bound, spring.data.redis.* by the caller.
        int resolvedPort = port != null ? port : RedisURI.DEFAULT_REDIS_PORT;
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
            throw new InvalidAdaptiveCachePropertyException(property, RedisCacheTemplates.maskCredentials(url),
                    "it must be a Redis URL such as redis://[user:password@]host:port[/database] or rediss://... for TLS ("
                            + RedisCacheTemplates.maskCredentials(String.valueOf(ex.getMessage())) + ")");
        }
    }
}
