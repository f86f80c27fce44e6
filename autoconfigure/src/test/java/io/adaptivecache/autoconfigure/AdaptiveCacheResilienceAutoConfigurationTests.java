package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.autoconfigure.endpoint.AdaptiveCacheEndpointAutoConfiguration;
import io.adaptivecache.autoconfigure.health.AdaptiveCacheHealthContributorAutoConfiguration;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.resilience.GuardStatus;
import io.adaptivecache.testservers.Allocations;
import io.adaptivecache.testservers.RedisServerExtension;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.analyzer.BootFailureAnalyzers;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** The resilience properties as the auto-configuration applies them, on a real Redis. */
class AdaptiveCacheResilienceAutoConfigurationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners
            .onRedis(redis, AdaptiveCacheEndpointAutoConfiguration.class, AdaptiveCacheHealthContributorAutoConfiguration.class)
            .withPropertyValues("management.endpoints.web.exposure.include=adaptivecache");

    private static ManagedCacheTemplate redisTemplate(org.springframework.context.ApplicationContext context) {
        return context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
    }

    @Test
    void byDefaultEveryCallShouldPassAClosedBreakerAndFailuresReachTheCaller() {
        this.contextRunner.run(context -> {
            ManagedCacheTemplate template = redisTemplate(context);
            GuardStatus guard = template.stats().guardStatus();
            assertThat(guard.circuitBreaker()).isEqualTo("adaptive-cache-redis");
            assertThat(guard.circuitState()).isEqualTo("CLOSED");
            assertThat(guard.retry()).isFalse();
            assertThat(guard.bulkheadAvailable()).isEqualTo(-1);
            assertThat(template.stats().failureMode()).isEqualTo(CacheFailureMode.FAIL_FAST);
        });
    }

    @Test
    void eachResiliencePropertyShouldReachTheGuard() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.resilience.on-failure=degrade",
                "adaptive-cache.redis.resilience.circuit-breaker.name=orders-cache",
                "adaptive-cache.redis.resilience.retry.enabled=true", "adaptive-cache.redis.resilience.bulkhead.enabled=true",
                "adaptive-cache.redis.resilience.bulkhead.max-concurrent-calls=5").run(context -> {
                    ManagedCacheTemplate template = redisTemplate(context);
                    GuardStatus guard = template.stats().guardStatus();
                    assertThat(guard.circuitBreaker()).isEqualTo("orders-cache");
                    assertThat(guard.retry()).isTrue();
                    assertThat(guard.bulkheadAvailable()).isEqualTo(5);
                    assertThat(template.stats().failureMode()).isEqualTo(CacheFailureMode.DEGRADE);
                    template.set("guarded:k", new byte[] { 1 }, Duration.ZERO);
                    assertThat(template.get("guarded:k")).containsExactly(1);
                });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.resilience.circuit-breaker.enabled=false")
                .run(context -> assertThat(redisTemplate(context).stats().guardStatus()).isEqualTo(GuardStatus.UNGUARDED));
    }

    @Test
    void aBreakerOfTheSameNameInTheApplicationsRegistryShouldBeTheOneUsed() {
        this.contextRunner.withUserConfiguration(ApplicationRegistry.class)
                .withPropertyValues("adaptive-cache.redis.resilience.on-failure=degrade").run(context -> {
                    ManagedCacheTemplate template = redisTemplate(context);
                    CircuitBreaker applications = context.getBean(CircuitBreakerRegistry.class).circuitBreaker("adaptive-cache-redis");
                    template.set("degrade:k", new byte[] { 1 }, Duration.ZERO);

                    applications.transitionToForcedOpenState();

                    assertThat(template.stats().guardStatus().circuitState()).isEqualTo("FORCED_OPEN");
                    assertThat(template.get("degrade:k")).as("an open circuit degrades to a miss").isNull();
                    template.set("degrade:k", new byte[] { 2 }, Duration.ZERO);
                    assertThat(template.stats().degradedReads()).isEqualTo(1);
                    assertThat(template.stats().skippedWrites()).isEqualTo(1);
                    AdaptiveCacheEndpoint.ResilienceDescriptor shown = context.getBean(AdaptiveCacheEndpoint.class).template("redis")
                            .resilience();
                    assertThat(shown.circuitState()).isEqualTo("FORCED_OPEN");
                    assertThat(shown.onFailure()).isEqualTo("degrade");
                    assertThat(shown.degradedReads()).isEqualTo(1);
                    Health health = ((HealthIndicator) context.getBean("adaptiveCacheHealthContributor",
                            CompositeHealthContributor.class).getContributor("redis")).health();
                    assertThat(health.getStatus()).as("degrade must not hide an outage from health").isEqualTo(Status.DOWN);
                    assertThat(health.getDetails()).containsEntry("circuitBreaker", "FORCED_OPEN");

                    applications.transitionToClosedState();
                    assertThat(template.get("degrade:k")).as("the skipped write changed nothing").containsExactly(1);
                });
    }

    @Test
    void resilience4jMetersShouldBeBoundForTheBreakersThisLibraryMade() {
        this.contextRunner.run(context -> {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            context.getBean("adaptiveCacheResilienceMeterBinder", MeterBinder.class).bindTo(registry);

            assertThat(registry.get("resilience4j.circuitbreaker.state").tag("name", "adaptive-cache-redis").tag("state", "closed")
                    .gauge().value()).isEqualTo(1);
            assertThat(registry.get("resilience4j.circuitbreaker.state").tag("name", "adaptive-cache-redis").tag("state", "open")
                    .gauge().value()).isEqualTo(0);
            assertThat(registry.find("resilience4j.circuitbreaker.failure.rate").tag("name", "adaptive-cache-redis").gauge())
                    .isNotNull();
            assertThat(registry.find("resilience4j.circuitbreaker.buffered.calls").tag("name", "adaptive-cache-redis").gauges())
                    .hasSize(2);
        });
    }

    @Test
    void withItsMetersBoundTheBreakerShouldRecordAnOutcomeWithoutAnEventOrACopyOfItsWindow() {
        // Each outcome is recorded on the I/O thread that completed the call. Resilience4j's own meter binding makes the
        // breaker build an event with its timestamp per outcome (about 220 bytes), its lock-free window a new copy of the
        // window (about 250 bytes); either would show here beside the 40-byte summary the default window returns.
        this.contextRunner.run(context -> {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            context.getBean("adaptiveCacheResilienceMeterBinder", MeterBinder.class).bindTo(registry);
            CircuitBreaker breaker = context.getBean(Resilience4jCallGuards.class).registries().circuitBreakers()
                    .find("adaptive-cache-redis").orElseThrow();

            assertThat(bytesPerRecordedOutcome(breaker)).isLessThan(100);
        });
    }

    /** Bytes this thread allocates per permission and success recorded, once the JIT has compiled the path. */
    private static double bytesPerRecordedOutcome(CircuitBreaker breaker) {
        return Allocations.bytesPerCall(100_000, () -> {
            breaker.tryAcquirePermission();
            breaker.onSuccess(1_000, TimeUnit.NANOSECONDS);
        });
    }

    @Test
    void withoutResilience4jTheTemplateShouldBeUnguardedAndRetryRequestsShouldFailClearly() {
        ApplicationContextRunner withoutResilience4j = this.contextRunner
                .withClassLoader(new FilteredClassLoader("io.github.resilience4j"));
        withoutResilience4j.run(context -> assertThat(redisTemplate(context).stats().guardStatus()).isEqualTo(GuardStatus.UNGUARDED));
        withoutResilience4j.withPropertyValues("adaptive-cache.redis.resilience.retry.enabled=true").run(context -> {
            assertThat(context).hasFailed();
            assertThat(analyze(context.getStartupFailure()).getDescription())
                    .contains("adaptive-cache.redis.resilience.retry.enabled").contains("resilience4j-retry");
        });
    }

    @Test
    void badResilienceValuesShouldNameTheProperty() {
        assertFails("adaptive-cache.redis.resilience.circuit-breaker.failure-rate-threshold=0",
                "adaptive-cache.redis.resilience.circuit-breaker.failure-rate-threshold", "percentage");
        assertFails("adaptive-cache.redis.resilience.circuit-breaker.wait-duration-in-open-state=0s",
                "adaptive-cache.redis.resilience.circuit-breaker.wait-duration-in-open-state", "positive duration");
        assertFails("adaptive-cache.redis.resilience.bulkhead.max-wait-duration=-1s",
                "adaptive-cache.redis.resilience.bulkhead.max-wait-duration", "zero", "adaptive-cache.redis.resilience.bulkhead.enabled=true");
        assertFails("adaptive-cache.redis.resilience.retry.max-attempts=0", "adaptive-cache.redis.resilience.retry.max-attempts",
                "at least 1", "adaptive-cache.redis.resilience.retry.enabled=true");
    }

    private void assertFails(String property, String expectedProperty, String expectedReason, String... more) {
        InvalidValues.assertRejected(this.contextRunner, property, expectedProperty, expectedReason, more);
    }

    private static FailureAnalysis analyze(Throwable failure) {
        return BootFailureAnalyzers.invalidValue(failure);
    }

    @Configuration(proxyBeanMethods = false)
    static class ApplicationRegistry {

        @Bean
        CircuitBreakerRegistry circuitBreakerRegistry() {
            CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults();
            registry.circuitBreaker("adaptive-cache-redis");
            return registry;
        }
    }
}
