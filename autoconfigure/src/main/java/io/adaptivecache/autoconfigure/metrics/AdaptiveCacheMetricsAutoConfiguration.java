package io.adaptivecache.autoconfigure.metrics;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheSwitchers;
import io.adaptivecache.autoconfigure.CacheTemplateBeans;
import io.adaptivecache.micrometer.CacheTemplateMeters;
import io.adaptivecache.micrometer.NearCacheMeters;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Binds the meters ({@code adaptive.cache.*}) of every managed cache template, the application's
 * own template beans too ({@link CacheTemplateBeans}), to the application's {@link MeterRegistry}. Runs after Boot's meter registry auto-configuration; without
 * Micrometer it is skipped and the templates work as before.
 */
@AutoConfiguration(after = AdaptiveCacheAutoConfiguration.class,
        afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
                "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, AdaptiveCacheSwitchers.class })
public final class AdaptiveCacheMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "adaptiveCacheMeterBinder")
    MeterBinder adaptiveCacheMeterBinder(ObjectProvider<CacheTemplate> templates, AdaptiveCacheSwitchers switchers) {
        return registry -> CacheTemplateBeans.managed(templates).forEach(template -> {
            CacheTemplateMeters meters = CacheTemplateMeters.bind(template, registry, () -> {
                StrategySwitcher switcher = switchers.get(template.name());
                return switcher == null ? null : switcher.state().lastDecision();
            });
            switchers.addListener(meters::onSwitch);
        });
    }

    /**
     * The near caches' meters ({@code cache.gets{tier=local|remote}}, evictions, invalidations, the
     * invalidation lag and the rest, by Micrometer's cache conventions), bound as each Spring cache
     * with a near cache is first used.
     */
    @Bean
    @ConditionalOnMissingBean(name = "adaptiveNearCacheMeterBinder")
    MeterBinder adaptiveNearCacheMeterBinder(ObjectProvider<AdaptiveCacheManager> cacheManagers) {
        return registry -> cacheManagers.forEach(manager -> manager.onNearCache(
                near -> NearCacheMeters.bind(near.template(), registry, Tags.of("backend", near.backend()))));
    }
}
