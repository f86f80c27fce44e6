package io.adaptivecache.autoconfigure;

import java.time.Duration;

import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.resilience.Resilience4jCallGuard;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
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
    public CallGuard forTemplate(String template, String prefix, AdaptiveCacheProperties.TemplateSettings settings) {
        AdaptiveCacheProperties.Resilience resilience = settings.getResilience();
        String defaultName = "adaptive-cache-" + template;
        String base = prefix + ".resilience";
        AdaptiveCacheProperties.CircuitBreaker breakerProperties = resilience.getCircuitBreaker();
        boolean anyEnabled = breakerProperties.isEnabled() || resilience.getRetry().isEnabled()
                || resilience.getBulkhead().isEnabled();
        if (!anyEnabled) {
            return CallGuard.NONE;
        }
        CircuitBreaker breaker = circuitBreaker(base + ".circuit-breaker", breakerProperties, defaultName);
        if (!breakerProperties.isEnabled()) {
            // Retry or bulkhead without a breaker: the guard still asks one, which lets everything through.
            breaker.transitionToDisabledState();
        }
        Retry retry = resilience.getRetry().isEnabled() ? retry(base + ".retry", resilience.getRetry(), defaultName) : null;
        Bulkhead bulkhead = resilience.getBulkhead().isEnabled()
                ? bulkhead(base + ".bulkhead", resilience.getBulkhead(), defaultName) : null;
        return Resilience4jCallGuard.of(breaker, retry, bulkhead);
    }

    private CircuitBreaker circuitBreaker(String prefix, AdaptiveCacheProperties.CircuitBreaker properties, String defaultName) {
        String name = properties.getName() != null ? properties.getName() : defaultName;
        if (!properties.isEnabled()) {
            return CircuitBreaker.of(name + "-disabled", CircuitBreakerConfig.ofDefaults());
        }
        return this.circuitBreakers.find(name).orElseGet(() -> {
            Duration waitInOpenState = properties.getWaitDurationInOpenState();
            positive(prefix + ".wait-duration-in-open-state", waitInOpenState, () -> {
            });
            CircuitBreakerConfig.Builder config = Resilience4jCallGuard.circuitBreakerDefaults(waitInOpenState);
            percent(prefix + ".failure-rate-threshold", properties.getFailureRateThreshold(),
                    () -> config.failureRateThreshold(properties.getFailureRateThreshold()));
            percent(prefix + ".slow-call-rate-threshold", properties.getSlowCallRateThreshold(),
                    () -> config.slowCallRateThreshold(properties.getSlowCallRateThreshold()));
            positive(prefix + ".slow-call-duration-threshold", properties.getSlowCallDurationThreshold(),
                    () -> config.slowCallDurationThreshold(properties.getSlowCallDurationThreshold()));
            atLeastOne(prefix + ".sliding-window-size", properties.getSlidingWindowSize(),
                    () -> config.slidingWindowSize(properties.getSlidingWindowSize()));
            atLeastOne(prefix + ".minimum-number-of-calls", properties.getMinimumNumberOfCalls(),
                    () -> config.minimumNumberOfCalls(properties.getMinimumNumberOfCalls()));
            atLeastOne(prefix + ".permitted-number-of-calls-in-half-open-state",
                    properties.getPermittedNumberOfCallsInHalfOpenState(),
                    () -> config.permittedNumberOfCallsInHalfOpenState(properties.getPermittedNumberOfCallsInHalfOpenState()));
            return this.circuitBreakers.circuitBreaker(name, config.build());
        });
    }

    private Retry retry(String prefix, AdaptiveCacheProperties.Retry properties, String defaultName) {
        String name = properties.getName() != null ? properties.getName() : defaultName;
        return this.retries.find(name).orElseGet(() -> {
            positive(prefix + ".wait-duration", properties.getWaitDuration(), () -> {
            });
            RetryConfig.Builder<Object> config = Resilience4jCallGuard.readRetryDefaults(properties.getWaitDuration());
            atLeastOne(prefix + ".max-attempts", properties.getMaxAttempts(), () -> config.maxAttempts(properties.getMaxAttempts()));
            return this.retries.retry(name, config.build());
        });
    }

    private Bulkhead bulkhead(String prefix, AdaptiveCacheProperties.Bulkhead properties, String defaultName) {
        String name = properties.getName() != null ? properties.getName() : defaultName;
        return this.bulkheads.find(name).orElseGet(() -> {
            BulkheadConfig.Builder config = Resilience4jCallGuard.bulkheadDefaults();
            atLeastOne(prefix + ".max-concurrent-calls", properties.getMaxConcurrentCalls(),
                    () -> config.maxConcurrentCalls(properties.getMaxConcurrentCalls()));
            Duration maxWait = properties.getMaxWaitDuration();
            if (maxWait == null || maxWait.isNegative()) {
                throw new InvalidAdaptiveCachePropertyException(prefix + ".max-wait-duration", maxWait,
                        "it must be zero (refuse at once) or a positive duration");
            }
            config.maxWaitDuration(maxWait);
            return this.bulkheads.bulkhead(name, config.build());
        });
    }

    private static void percent(String property, float value, Runnable apply) {
        if (!(value > 0 && value <= 100)) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be a percentage above 0 and at most 100");
        }
        apply.run();
    }

    private static void positive(String property, Duration value, Runnable apply) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be a positive duration, such as 500ms or 5s");
        }
        apply.run();
    }

    private static void atLeastOne(String property, int value, Runnable apply) {
        if (value < 1) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be at least 1");
        }
        apply.run();
    }
}
