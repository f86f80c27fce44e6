package io.adaptivecache.autoconfigure;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * {@link ManagedCacheTemplate} beans for Redis and memcached, configured by {@code adaptive-cache.*}.
 *
 * <p>Each backend is created when its client library is on the classpath and
 * {@code adaptive-cache.<backend>.enabled} is not {@code false}. The beans are named
 * {@value #REDIS_TEMPLATE} and {@value #MEMCACHED_TEMPLATE}; inject one with
 * {@code @Qualifier("redisCacheTemplate") CacheTemplate cache}, or without a qualifier when it
 * is the only one. Define a bean of the same name to replace it. Connections open when the
 * context starts ({@link CacheTemplatesLifecycle}).
 *
 * <p>A template bean of the application's own, built with a template builder (and so a
 * {@link ManagedCacheTemplate}), is managed as these are: started and closed with the context,
 * switched by an adaptive switcher, with meters, a health indicator and an endpoint entry under
 * its name. Each template needs a name of its own. Each template's adaptive switcher asks the
 * policy of a {@link StrategyPolicyProvider} bean that answers for the template, or the default
 * one, adjusted by {@link StrategyPolicyCustomizer} beans.
 */
@AutoConfiguration
@EnableConfigurationProperties({ AdaptiveCacheRedisProperties.class, AdaptiveCacheMemcachedProperties.class })
@Import({ ResilienceConfiguration.class, RedisConnectionConfiguration.class, RedisCacheTemplateConfiguration.class,
        MemcachedCacheTemplateConfiguration.class })
public final class AdaptiveCacheAutoConfiguration {

    /** Name of the Redis template bean, usable as a qualifier. */
    public static final String REDIS_TEMPLATE = "redisCacheTemplate";

    /** Name of the memcached template bean, usable as a qualifier. */
    public static final String MEMCACHED_TEMPLATE = "memcachedCacheTemplate";

    @Bean
    @ConditionalOnMissingBean
    AdaptiveCacheSwitchers adaptiveCacheSwitchers(ObjectProvider<AdaptiveCacheTemplateProperties> templates,
            ApplicationEventPublisher events, ObjectProvider<StrategyPolicyProvider> policyProviders,
            ObjectProvider<StrategyPolicyCustomizer> policyCustomizers) {
        return new AdaptiveCacheSwitchers(templates.orderedStream().toList(), events, policyProviders.orderedStream().toList(),
                policyCustomizers.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    CacheTemplatesLifecycle adaptiveCacheTemplatesLifecycle(ObjectProvider<CacheTemplate> templates,
            AdaptiveCacheSwitchers switchers, TemplateServerSources sources) {
        return new CacheTemplatesLifecycle(templates, switchers, sources);
    }

    /** Where the auto-configured templates' servers came from, for the analysis of a failed start. */
    @Bean
    TemplateServerSources adaptiveCacheTemplateServerSources() {
        return new TemplateServerSources();
    }
}
