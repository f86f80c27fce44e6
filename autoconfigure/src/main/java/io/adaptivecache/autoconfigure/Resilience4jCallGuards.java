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
 * registry of this class, whose instances {@link #ownRegistries} exposes for metrics.
 */
final class Resilience4jCallGuards implements CacheCallGuards {

    private final CircuitBreakerRegistry circuitBreakers;
    private final RetryRegistry retries;
    private final BulkheadRegistry bulkheads;
    private final boolean ownRegistries;

    Resilience4jCallGuards(@Nullable CircuitBreakerRegistry circuitBreakers, @Nullable RetryRegistry retries,
            @Nullable BulkheadRegistry bulkheads) {
        this.ownRegistries = circuitBreakers == null;
        this.circuitBreakers = circuitBreakers != null ? circuitBreakers : CircuitBreakerRegistry.ofDefaults();
        this.retries = retries != null ? retries : RetryRegistry.ofDefaults();
        this.bulkheads = bulkheads != null ? bulkheads : BulkheadRegistry.ofDefaults();
    }

    /** Whether the registries are this class's own rather than the application's. */
    boolean ownRegistries() {
        return this.ownRegistries;
    }

    CircuitBreakerRegistry circuitBreakers() {
        return this.circuitBreakers;
    }

    RetryRegistry retries() {
        return this.retries;
    }

    BulkheadRegistry bulkheads() {
        return this.bulkheads;
    }

    @Override
    public CallGuard forTemplate(String template, String prefix, AdaptiveCacheTemplateProperties settings) {
        AdaptiveCacheTemplateProperties.Resilience resilience = settings.getResilience();
        String defaultName = "adaptive-cache-" + template;
        AdaptiveCacheTemplateProperties.CircuitBreaker breakerProperties = resilience.getCircuitBreaker();
        boolean anyEnabled = breakerProperties.isEnabled() || resilience.getRetry().isEnabled()
                || resilience.getBulkhead().isEnabled();
        if (!anyEnabled) {
            return CallGuard.NONE;
        }
        CircuitBreaker breaker = circuitBreaker(breakerProperties, defaultName);
        if (!breakerProperties.isEnabled()) {
            // Retry or bulkhead without a breaker: the guard still asks one, which lets everything through.
            breaker.transitionToDisabledState();
        }
        Retry retry = resilience.getRetry().isEnabled() ? retry(resilience.getRetry(), defaultName) : null;
        Bulkhead bulkhead = resilience.getBulkhead().isEnabled()
                ? bulkhead(resilience.getBulkhead(), defaultName) : null;
        return Resilience4jCallGuard.of(breaker, retry, bulkhead);
    }

    // The values were checked when the properties were bound.
    private CircuitBreaker circuitBreaker(AdaptiveCacheTemplateProperties.CircuitBreaker properties, String defaultName) {
        String name = properties.getName() != null ? properties.getName() : defaultName;
        if (!properties.isEnabled()) {
            return CircuitBreaker.of(name + "-disabled", CircuitBreakerConfig.ofDefaults());
        }
        return this.circuitBreakers.find(name).orElseGet(() -> this.circuitBreakers.circuitBreaker(name,
                Resilience4jCallGuard.circuitBreakerDefaults(properties.getWaitDurationInOpenState())
                        .failureRateThreshold(properties.getFailureRateThreshold())
                        .slowCallRateThreshold(properties.getSlowCallRateThreshold())
                        .slowCallDurationThreshold(properties.getSlowCallDurationThreshold())
                        .slidingWindowSize(properties.getSlidingWindowSize())
                        .minimumNumberOfCalls(properties.getMinimumNumberOfCalls())
                        .permittedNumberOfCallsInHalfOpenState(properties.getPermittedNumberOfCallsInHalfOpenState())
                        .build()));
    }

    private Retry retry(AdaptiveCacheTemplateProperties.Retry properties, String defaultName) {
        String name = properties.getName() != null ? properties.getName() : defaultName;
        return this.retries.find(name).orElseGet(() -> this.retries.retry(name,
                Resilience4jCallGuard.readRetryDefaults(properties.getWaitDuration()).maxAttempts(properties.getMaxAttempts()).build()));
    }

    private Bulkhead bulkhead(AdaptiveCacheTemplateProperties.Bulkhead properties, String defaultName) {
        String name = properties.getName() != null ? properties.getName() : defaultName;
        return this.bulkheads.find(name).orElseGet(() -> this.bulkheads.bulkhead(name, Resilience4jCallGuard.bulkheadDefaults()
                .maxConcurrentCalls(properties.getMaxConcurrentCalls()).maxWaitDuration(properties.getMaxWaitDuration()).build()));
    }
}
