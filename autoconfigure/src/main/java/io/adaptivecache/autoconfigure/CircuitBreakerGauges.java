package io.adaptivecache.autoconfigure;

import java.util.Locale;
import java.util.function.ToDoubleFunction;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.CircuitBreakerMetricNames;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The meters of the circuit breakers this library made, by Resilience4j's names and tags
 * ({@code resilience4j.circuitbreaker.state}, {@code .buffered.calls}, {@code .slow.calls},
 * {@code .failure.rate}, {@code .slow.call.rate}), each read from the breaker when scraped.
 * <p>
 * Resilience4j's own binding ({@code TaggedCircuitBreakerMetrics}) adds timers of every call,
 * fed by the breaker's events: with it, each call's outcome builds an event and its timestamp
 * (about 220 bytes) on the I/O thread that completed the call, which serves every other caller
 * of that connection. Those calls are timed already, by outcome, in {@code adaptive.cache.commands};
 * a call the breaker refused is its outcome {@code rejected}.
 */
final class CircuitBreakerGauges {

    private static final CircuitBreakerMetricNames NAMES = CircuitBreakerMetricNames.ofDefaults();

    private CircuitBreakerGauges() {
    }

    /**
     * Binds the registry's breakers, and the ones added to it later.
     * @param breakers the breakers' registry
     * @param registry the meter registry
     */
    static void bind(CircuitBreakerRegistry breakers, MeterRegistry registry) {
        breakers.getAllCircuitBreakers().forEach(breaker -> bind(breaker, registry));
        breakers.getEventPublisher().onEntryAdded(event -> bind(event.getAddedEntry(), registry));
    }

    private static void bind(CircuitBreaker breaker, MeterRegistry registry) {
        Tags tags = Tags.of("name", breaker.getName());
        for (CircuitBreaker.State state : CircuitBreaker.State.values()) {
            Gauge.builder(NAMES.getStateMetricName(), breaker, b -> b.getState() == state ? 1 : 0)
                    .tags(tags.and("state", state.name().toLowerCase(Locale.ROOT)))
                    .description("The states of the circuit breaker").register(registry);
        }
        gauge(registry, NAMES.getBufferedCallsMetricName(), tags.and("kind", "failed"), breaker,
                b -> b.getMetrics().getNumberOfFailedCalls(), "The number of buffered failed calls stored in the ring buffer");
        gauge(registry, NAMES.getBufferedCallsMetricName(), tags.and("kind", "successful"), breaker,
                b -> b.getMetrics().getNumberOfSuccessfulCalls(), "The number of buffered successful calls stored in the ring buffer");
        gauge(registry, NAMES.getSlowCallsMetricName(), tags.and("kind", "successful"), breaker,
                b -> b.getMetrics().getNumberOfSlowSuccessfulCalls(), "The number of slow successful calls");
        gauge(registry, NAMES.getSlowCallsMetricName(), tags.and("kind", "failed"), breaker,
                b -> b.getMetrics().getNumberOfSlowFailedCalls(), "The number of slow failed calls");
        gauge(registry, NAMES.getFailureRateMetricName(), tags, breaker, b -> b.getMetrics().getFailureRate(),
                "The failure rate of the circuit breaker");
        gauge(registry, NAMES.getSlowCallRateMetricName(), tags, breaker, b -> b.getMetrics().getSlowCallRate(),
                "The slow call rate of the circuit breaker");
    }

    private static void gauge(MeterRegistry registry, String name, Tags tags, CircuitBreaker breaker,
            ToDoubleFunction<CircuitBreaker> value, String description) {
        Gauge.builder(name, breaker, value).tags(tags).description(description).register(registry);
    }
}
