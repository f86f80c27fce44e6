package io.adaptivecache.autoconfigure;

import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.resilience.Resilience4jCallGuard;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Builds Resilience4j guards. An instance of the configured name in the application's own
 * registry (from resilience4j-spring-boot, say) is used as configured there; otherwise one is
 * made from {@code adaptive-cache.<backend>.resilience.*} in the application's registry when
 * there is one (so the application's Resilience4j meters and endpoints show it), else in a
 * registry of this class, whose instances {@link #registries} exposes for metrics.
 */
final class Resilience4jCallGuards implements CacheCallGuards {

    private final Registries registries;

    Resilience4jCallGuards(@Nullable CircuitBreakerRegistry circuitBreakers, @Nullable RetryRegistry retries,
            @Nullable BulkheadRegistry bulkheads) {
        this.registries = new Registries(circuitBreakers != null ? circuitBreakers : CircuitBreakerRegistry.ofDefaults(),
                retries != null ? retries : RetryRegistry.ofDefaults(), bulkheads != null ? bulkheads : BulkheadRegistry.ofDefaults(),
                circuitBreakers == null);
    }

    /** The registries the guards are found or made in. */
    Registries registries() {
        return this.registries;
    }

    /**
     * Where the guards are found or made.
     * @param circuitBreakers the circuit breakers' registry
     * @param retries the retries' registry
     * @param bulkheads the bulkheads' registry
     * @param own whether the registries are this class's own rather than the application's
     */
    record Registries(CircuitBreakerRegistry circuitBreakers, RetryRegistry retries, BulkheadRegistry bulkheads, boolean own) {
    }

    @Override
    public CallGuard forTemplate(String template, String prefix, AdaptiveCacheTemplateProperties settings) {
        AdaptiveCacheTemplateProperties.Resilience resilience = settings.getResilience();
        String defaultName = "adaptive-cache-" + template;
        AdaptiveCacheTemplateProperties.CircuitBreaker breakerProperties = resilience.circuitBreaker();
        boolean anyEnabled = breakerProperties.enabled() || resilience.retry().enabled()
                || resilience.bulkhead().enabled();
        if (!anyEnabled) {
            return CallGuard.NONE;
        }
        CircuitBreaker breaker = circuitBreaker(breakerProperties, defaultName);
        if (!breakerProperties.enabled()) {
            // Retry or bulkhead without a breaker: the guard still asks one, which lets everything through.
            breaker.transitionToDisabledState();
        }
        Retry retry = resilience.retry().enabled() ? retry(resilience.retry(), defaultName) : null;
        Bulkhead bulkhead = resilience.bulkhead().enabled()
                ? bulkhead(resilience.bulkhead(), defaultName) : null;
        return Resilience4jCallGuard.of(breaker, retry, bulkhead);
    }

    // The values were checked when the properties were bound.
    private CircuitBreaker circuitBreaker(AdaptiveCacheTemplateProperties.CircuitBreaker properties, String defaultName) {
        String name = properties.name() != null ? properties.name() : defaultName;
        if (!properties.enabled()) {
            return CircuitBreaker.of(name + "-disabled", CircuitBreakerConfig.ofDefaults());
        }
        CircuitBreakerRegistry registry = this.registries.circuitBreakers();
        return registry.find(name).orElseGet(() -> registry.circuitBreaker(name,
                Resilience4jCallGuard.circuitBreakerDefaults(properties.waitDurationInOpenState())
                        .failureRateThreshold(properties.failureRateThreshold())
                        .slowCallRateThreshold(properties.slowCallRateThreshold())
                        .slowCallDurationThreshold(properties.slowCallDurationThreshold())
                        .slidingWindowSize(properties.slidingWindowSize())
                        .minimumNumberOfCalls(properties.minimumNumberOfCalls())
                        .permittedNumberOfCallsInHalfOpenState(properties.permittedNumberOfCallsInHalfOpenState())
                        .build()));
    }

    private Retry retry(AdaptiveCacheTemplateProperties.Retry properties, String defaultName) {
        String name = properties.name() != null ? properties.name() : defaultName;
        RetryRegistry registry = this.registries.retries();
        return registry.find(name).orElseGet(() -> registry.retry(name,
                Resilience4jCallGuard.readRetryDefaults(properties.waitDuration()).maxAttempts(properties.maxAttempts()).build()));
    }

    private Bulkhead bulkhead(AdaptiveCacheTemplateProperties.Bulkhead properties, String defaultName) {
        String name = properties.name() != null ? properties.name() : defaultName;
        BulkheadRegistry registry = this.registries.bulkheads();
        return registry.find(name).orElseGet(() -> registry.bulkhead(name, Resilience4jCallGuard.bulkheadDefaults()
                .maxConcurrentCalls(properties.maxConcurrentCalls()).maxWaitDuration(properties.maxWaitDuration()).build()));
    }
}
