package io.adaptivecache.autoconfigure.cache;

import java.time.Duration;
import java.util.Map;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheSpringCacheProperties;
import io.adaptivecache.autoconfigure.InvalidAdaptiveCachePropertyException;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.adaptivecache.spring.cache.CacheFailureHandler;
import io.adaptivecache.spring.cache.CacheValueSerializer;
import io.adaptivecache.spring.cache.JdkCacheValueSerializer;
import io.adaptivecache.spring.cache.JsonCacheValueSerializer;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
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

    @Bean
    AdaptiveCacheManager cacheManager(AdaptiveCacheSpringCacheProperties cache, Map<String, CacheTemplate> templates,
            CacheValueSerializer adaptiveCacheValueSerializer) {
        AdaptiveCacheSpringCacheProperties.Backend defaultBackend = cache.getBackend() != null ? cache.getBackend()
                : templates.containsKey(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE) ? AdaptiveCacheSpringCacheProperties.Backend.REDIS
                        : AdaptiveCacheSpringCacheProperties.Backend.MEMCACHED;
        template(templates, defaultBackend, PREFIX + ".backend");
        cache.getBackends().forEach((name, backend) -> template(templates, backend, PREFIX + ".backends." + name));
        CacheFailureHandler failures = new CacheFailureHandler(cache.getOnError() == AdaptiveCacheSpringCacheProperties.OnError.RETHROW,
                Duration.ofSeconds(30));
        return new AdaptiveCacheManager(name -> {
            AdaptiveCacheSpringCacheProperties.Backend backend = cache.getBackends().getOrDefault(name, defaultBackend);
            return new AdaptiveCacheManager.CacheSettings(template(templates, backend, PREFIX + ".backends." + name),
                    cache.getTtl().getOrDefault(name, cache.getDefaultTtl()), cache.getKeyPrefix(), cache.isAllowNullValues());
        }, adaptiveCacheValueSerializer, failures);
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

        @Bean
        @ConditionalOnMissingBean(CacheValueSerializer.class)
        CacheValueSerializer adaptiveCacheValueSerializer(ObjectProvider<ObjectMapper> mappers) {
            return new JsonCacheValueSerializer(mappers.getIfAvailable(() -> JsonMapper.builder().build()),
                    Thread.currentThread().getContextClassLoader());
        }
    }

    /** Java serialization when chosen; JSON without Jackson is a configuration error. Member classes are processed first. */
    @Bean
    @ConditionalOnMissingBean(CacheValueSerializer.class)
    CacheValueSerializer adaptiveCacheValueSerializer(AdaptiveCacheSpringCacheProperties properties) {
        if (properties.getSerializer() != AdaptiveCacheSpringCacheProperties.Serializer.JDK) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".serializer", "json",
                    "JSON needs tools.jackson.core:jackson-databind on the classpath; add it or set " + PREFIX + ".serializer=jdk");
        }
        return new JdkCacheValueSerializer(Thread.currentThread().getContextClassLoader());
    }
}
