package io.adaptivecache.autoconfigure;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedRetryMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Guards on Resilience4j, taking the application's registries when it has them. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ CircuitBreaker.class, Retry.class, Bulkhead.class })
class ResilienceConfiguration {

    @Bean
    @ConditionalOnMissingBean(CacheCallGuards.class)
    Resilience4jCallGuards adaptiveCacheCallGuards(ObjectProvider<CircuitBreakerRegistry> circuitBreakers,
            ObjectProvider<RetryRegistry> retries, ObjectProvider<BulkheadRegistry> bulkheads) {
        return new Resilience4jCallGuards(circuitBreakers.getIfUnique(), retries.getIfUnique(), bulkheads.getIfUnique());
    }

    /**
     * Resilience4j's meters ({@code resilience4j.circuitbreaker.*} and so on) for the instances
     * this library made; for the breakers, the ones read when scraped, without a timer fed by an
     * event per call ({@link CircuitBreakerGauges}). Instances in the application's registries are
     * bound by the application's Resilience4j integration, not twice here.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ TaggedRetryMetrics.class, MeterRegistry.class })
    static class ResilienceMetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "adaptiveCacheResilienceMeterBinder")
        MeterBinder adaptiveCacheResilienceMeterBinder(ObjectProvider<Resilience4jCallGuards> resilience4jGuards) {
            // An application's own CacheCallGuards replaces the Resilience4j ones: then there is nothing of ours to bind.
            return registry -> resilience4jGuards.ifAvailable(guards -> {
                Resilience4jCallGuards.Registries registries = guards.registries();
                if (registries.own()) {
                    CircuitBreakerGauges.bind(registries.circuitBreakers(), registry);
                    TaggedRetryMetrics.ofRetryRegistry(registries.retries()).bindTo(registry);
                    TaggedBulkheadMetrics.ofBulkheadRegistry(registries.bulkheads()).bindTo(registry);
                }
            });
        }
    }
}
