package io.adaptivecache.autoconfigure.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheSpringCacheProperties;
import io.adaptivecache.autoconfigure.AdaptiveCacheRedisProperties;
import io.adaptivecache.autoconfigure.InvalidAdaptiveCachePropertyException;
import io.adaptivecache.autoconfigure.RedisInvalidationSources;
import io.adaptivecache.autoconfigure.ResolvedRedisConnection;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.near.NearCacheSettings;
import io.adaptivecache.near.NearCacheTemplates;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.adaptivecache.spring.cache.CacheFailureHandler;
import io.adaptivecache.spring.cache.CacheValueSerializer;
import io.adaptivecache.spring.cache.JdkCacheValueSerializer;
import io.adaptivecache.spring.cache.JsonCacheValueSerializer;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cache.CacheManager;
import org.springframework.cache.interceptor.CacheAspectSupport;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@link CacheManager} over the cache templates when the application enables caching
 * ({@code @EnableCaching}) and defines no cache manager of its own. Runs before Spring Boot's
 * own cache auto-configuration, which would otherwise fall back to an in-memory map.
 */
@AutoConfiguration(after = AdaptiveCacheAutoConfiguration.class,
        beforeName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnClass(CacheManager.class)
@ConditionalOnBean({ CacheAspectSupport.class, CacheTemplate.class })
@ConditionalOnMissingBean(CacheManager.class)
@ConditionalOnBooleanProperty(name = "adaptive-cache.cache.enabled", matchIfMissing = true)
@EnableConfigurationProperties(AdaptiveCacheSpringCacheProperties.class)
public final class AdaptiveCacheSpringCacheAutoConfiguration {

    private static final String PREFIX = AdaptiveCacheSpringCacheProperties.PREFIX;

    private static final String CAFFEINE = "com.github.benmanes.caffeine.cache.Caffeine";

    @Bean
    AdaptiveCacheManager cacheManager(AdaptiveCacheSpringCacheProperties cache, Map<String, CacheTemplate> templates,
            CacheValueSerializer adaptiveCacheValueSerializer, ObjectProvider<InvalidationSource> invalidationSources,
            ResourceLoader resourceLoader) {
        AdaptiveCacheSpringCacheProperties.Backend defaultBackend = defaultBackend(cache, templates);
        template(templates, defaultBackend, PREFIX + ".backend");
        cache.backends().forEach((name, backend) -> template(templates, backend, PREFIX + ".backends." + name));
        checkNearCaches(cache, templates, defaultBackend, resourceLoader.getClassLoader());
        // Resolved now, so that the source is made before this manager and destroyed after it: near caches close first.
        InvalidationSource invalidations = invalidationSources.getIfAvailable();
        CacheFailureHandler failures = new CacheFailureHandler(cache.onError() == AdaptiveCacheSpringCacheProperties.OnError.RETHROW,
                Duration.ofSeconds(30));
        return new AdaptiveCacheManager(name -> {
            AdaptiveCacheSpringCacheProperties.Backend backend = cache.backends().getOrDefault(name, defaultBackend);
            CacheTemplate template = template(templates, backend, PREFIX + ".backends." + name);
            return new AdaptiveCacheManager.CacheSettings(template, cache.ttl().getOrDefault(name, cache.defaultTtl()),
                    cache.keyPrefix(), cache.allowNullValues(), nearCache(cache, name, backend, template, invalidations));
        }, adaptiveCacheValueSerializer, failures);
    }

    private static AdaptiveCacheSpringCacheProperties.Backend defaultBackend(AdaptiveCacheSpringCacheProperties cache,
            Map<String, CacheTemplate> templates) {
        return cache.backend() != null ? cache.backend()
                : templates.containsKey(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE) ? AdaptiveCacheSpringCacheProperties.Backend.REDIS
                        : AdaptiveCacheSpringCacheProperties.Backend.MEMCACHED;
    }

    /** What would otherwise fail on a cache's first use, long after startup. */
    private static void checkNearCaches(AdaptiveCacheSpringCacheProperties cache, Map<String, CacheTemplate> templates,
            AdaptiveCacheSpringCacheProperties.Backend defaultBackend, @Nullable ClassLoader classLoader) {
        if (!cache.usesNearCache()) {
            return;
        }
        String property = cache.near().enabled() ? PREFIX + ".near.enabled"
                : PREFIX + ".near.caches." + cache.near().caches().entrySet().stream()
                        .filter(entry -> Boolean.TRUE.equals(entry.getValue().enabled())).findFirst().orElseThrow().getKey()
                        + ".enabled";
        if (!ClassUtils.isPresent(CAFFEINE, classLoader)) {
            throw new InvalidAdaptiveCachePropertyException(property, true, "a near cache keeps its local tier in Caffeine, which is"
                    + " not on the classpath: add the dependency com.github.ben-manes.caffeine:caffeine (Spring Boot manages its"
                    + " version), or turn the near cache off");
        }
        if (cache.usesNearCacheOn(AdaptiveCacheSpringCacheProperties.Backend.REDIS, defaultBackend)
                && templates.get(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE) instanceof ManagedCacheTemplate redis
                && redis.nodes().isPresent()) {
            throw new InvalidAdaptiveCachePropertyException(property, true, "the Redis template is a Redis Cluster's, which a near"
                    + " cache with invalidations does not support yet (it would need a tracking connection to every master);"
                    + " turn the near cache off for the caches stored in Redis");
        }
    }

    private static AdaptiveCacheManager.@Nullable NearCache nearCache(AdaptiveCacheSpringCacheProperties cache, String name,
            AdaptiveCacheSpringCacheProperties.Backend backend, CacheTemplate template, @Nullable InvalidationSource invalidations) {
        AdaptiveCacheSpringCacheProperties.Near near = cache.near();
        if (!near.enabledFor(name)) {
            return null;
        }
        // Exactly this cache's keys (AdaptiveCache's <prefix><name>:...): the server then reports writes to them only.
        NearCacheSettings settings = near.settingsFor(name, cache.keyPrefix() + name + ":");
        if (backend == AdaptiveCacheSpringCacheProperties.Backend.MEMCACHED) {
            return new AdaptiveCacheManager.NearCache(NearCacheTemplates.stalenessBounded(template, near.maxStalenessFor(name), settings),
                    settings, "memcached");
        }
        if (invalidations == null) {
            throw new IllegalStateException("The near cache of the Spring cache '" + name + "' needs an InvalidationSource bean for"
                    + " the Redis template; none exists (is com.github.ben-manes.caffeine:caffeine on the classpath?)");
        }
        return new AdaptiveCacheManager.NearCache(NearCacheTemplates.redis(template, invalidations, settings), settings, "redis");
    }

    /**
     * The Redis invalidation source of the near caches: one connection per application instance to
     * the Redis template's server, with its TLS and SSL bundle, shared by every near cache on it. Made only when a Spring cache
     * stored in Redis has a near cache and Caffeine is present; closed after the near caches (the
     * cache manager, made after it) and before the template (which it depends on).
     */
    @Bean
    @ConditionalOnMissingBean(InvalidationSource.class)
    @ConditionalOnBean(name = AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE)
    @ConditionalOnClass(name = CAFFEINE)
    @Conditional(NearCacheOnRedisCondition.class)
    InvalidationSource redisInvalidationSource(@Qualifier(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE) CacheTemplate redisTemplate,
            AdaptiveCacheRedisProperties redis, ObjectProvider<ResolvedRedisConnection> connection,
            AdaptiveCacheSpringCacheProperties cache, ObjectProvider<SslBundles> sslBundles) {
        // The template's own connection (a provider: the method's signature names no class of Lettuce's).
        return RedisInvalidationSources.start(connection.getObject(), redis, sslBundles, cache.near().heartbeatInterval(),
                cache.near().heartbeatTimeout());
    }

    /** Whether the properties give some Spring cache stored in Redis a near cache (the Redis template exists when this is asked). */
    static final class NearCacheOnRedisCondition extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            AdaptiveCacheSpringCacheProperties cache = Binder.get(context.getEnvironment())
                    .bindOrCreate(PREFIX, AdaptiveCacheSpringCacheProperties.class);
            AdaptiveCacheSpringCacheProperties.Backend defaultBackend = cache.backend() != null ? cache.backend()
                    : AdaptiveCacheSpringCacheProperties.Backend.REDIS;
            boolean near = cache.usesNearCacheOn(AdaptiveCacheSpringCacheProperties.Backend.REDIS, defaultBackend);
            return near ? ConditionOutcome.match("a near cache is enabled for a Spring cache stored in Redis")
                    : ConditionOutcome.noMatch("no near cache is enabled for a Spring cache stored in Redis");
        }
    }

    private static CacheTemplate template(Map<String, CacheTemplate> templates, AdaptiveCacheSpringCacheProperties.Backend backend,
            String property) {
        String bean = backend == AdaptiveCacheSpringCacheProperties.Backend.REDIS ? AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE
                : AdaptiveCacheAutoConfiguration.MEMCACHED_TEMPLATE;
        CacheTemplate template = templates.get(bean);
        if (template == null) {
            throw new InvalidAdaptiveCachePropertyException(property, backend.name().toLowerCase(java.util.Locale.ROOT),
                    "that backend has no cache template (is it disabled, or its client library missing?); available: "
                            + templates.keySet());
        }
        return template;
    }

    /** JSON through the application's Jackson, when Jackson is present and JSON is chosen (the default). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObjectMapper.class)
    @ConditionalOnProperty(name = PREFIX + ".serializer", havingValue = "json", matchIfMissing = true)
    static class JsonSerializerConfiguration {

        /**
         * Values may name classes of the application's packages (those of {@code @SpringBootApplication}), of the
         * allowed-packages property and the JDK's basic ones: whoever writes to the server chooses what is built.
         */
        @Bean
        @ConditionalOnMissingBean(CacheValueSerializer.class)
        CacheValueSerializer adaptiveCacheValueSerializer(ObjectProvider<ObjectMapper> mappers,
                AdaptiveCacheSpringCacheProperties properties, BeanFactory beanFactory) {
            List<String> packages = new ArrayList<>(AutoConfigurationPackages.has(beanFactory)
                    ? AutoConfigurationPackages.get(beanFactory) : List.of());
            packages.addAll(properties.json().allowedPackages());
            return new JsonCacheValueSerializer(mappers.getIfAvailable(() -> JsonMapper.builder().build()),
                    Thread.currentThread().getContextClassLoader(), JsonCacheValueSerializer.allowedTypes(packages));
        }
    }

    /** Java serialization when chosen; JSON without Jackson is a configuration error. Member classes are processed first. */
    @Bean
    @ConditionalOnMissingBean(CacheValueSerializer.class)
    CacheValueSerializer adaptiveCacheValueSerializer(AdaptiveCacheSpringCacheProperties properties) {
        if (properties.serializer() != AdaptiveCacheSpringCacheProperties.Serializer.JDK) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".serializer", "json",
                    "JSON needs tools.jackson.core:jackson-databind on the classpath; add it or set " + PREFIX + ".serializer=jdk");
        }
        return new JdkCacheValueSerializer(Thread.currentThread().getContextClassLoader());
    }
}
