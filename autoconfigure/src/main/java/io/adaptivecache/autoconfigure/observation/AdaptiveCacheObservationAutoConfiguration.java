package io.adaptivecache.autoconfigure.observation;

import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.AdaptiveCacheObservationProperties;
import io.adaptivecache.micrometer.CacheCallObservationConvention;
import io.adaptivecache.micrometer.CacheCallObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Makes every call of the auto-configured cache templates a Micrometer Observation
 * ({@code adaptive.cache.call}; a span when the application has tracing) when
 * {@code adaptive-cache.observations.enabled=true} and the application has an
 * {@link ObservationRegistry} (Boot's, with spring-boot-micrometer-observation or the actuator).
 * The templates are given the {@link CacheCallObservations} bean as their builder's call
 * interceptor; a template the application builds itself gets the same by passing that bean to its
 * builder's {@code interceptCallsWith}. Off, the templates get no interceptor and create no observation. An application may replace the
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
}
