package io.adaptivecache.autoconfigure.observation;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheObservationProperties;
import io.adaptivecache.autoconfigure.CacheTemplateBeans;
import io.adaptivecache.micrometer.CacheCallObservationConvention;
import io.adaptivecache.micrometer.CacheCallObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Makes every call of every managed cache template (the application's own beans too) a Micrometer Observation
 * ({@code adaptive.cache.call}; a span when the application has tracing) when
 * {@code adaptive-cache.observations.enabled=true} and the application has an
 * {@link ObservationRegistry} (Boot's, with spring-boot-micrometer-observation or the actuator).
 * Off, the templates get no interceptor and create no observation. An application may replace the
 * {@link CacheCallObservations} bean, or give a {@link CacheCallObservationConvention} bean to
 * rename or retag the observations.
 */
@AutoConfiguration(after = AdaptiveCacheAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnProperty(prefix = "adaptive-cache.observations", name = "enabled", havingValue = "true")
@EnableConfigurationProperties(AdaptiveCacheObservationProperties.class)
public final class AdaptiveCacheObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CacheCallObservations adaptiveCacheCallObservations(ObservationRegistry registry,
            ObjectProvider<CacheCallObservationConvention> convention) {
        return new CacheCallObservations(registry, convention.getIfUnique());
    }

    /**
     * Attaches the observations to every template once all beans exist: before the templates
     * start (with the application's lifecycle), so before their first call.
     */
    @Bean
    SmartInitializingSingleton adaptiveCacheCallObservationsAttacher(ObjectProvider<CacheTemplate> templates,
            CacheCallObservations observations) {
        return () -> CacheTemplateBeans.managed(templates).forEach(template -> template.interceptCallsWith(observations));
    }
}
