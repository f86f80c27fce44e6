package io.adaptivecache.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.Map;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.actuate.health.CacheTemplateHealthIndicator;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheSwitchers;
import io.adaptivecache.autoconfigure.CacheTemplateBeans;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * {@code adaptiveCache} health: one indicator per managed template, by its name
 * ({@code adaptiveCache.redis}, {@code adaptiveCache.memcached}, and one for each template bean of
 * the application's own).
 */
@AutoConfiguration(after = AdaptiveCacheAutoConfiguration.class)
@ConditionalOnClass(HealthContributor.class)
@ConditionalOnBean(AdaptiveCacheSwitchers.class)
@ConditionalOnEnabledHealthIndicator("adaptivecache")
public final class AdaptiveCacheHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "adaptiveCacheHealthContributor")
    HealthContributor adaptiveCacheHealthContributor(ObjectProvider<CacheTemplate> templates, AdaptiveCacheSwitchers switchers) {
        Map<String, CacheTemplateHealthIndicator> indicators = new LinkedHashMap<>();
        CacheTemplateBeans.managed(templates)
                .forEach(template -> indicators.put(template.name(), new CacheTemplateHealthIndicator(template, switchers)));
        return CompositeHealthContributor.fromMap(indicators);
    }
}
