package io.adaptivecache.integration;

import java.time.Duration;

import io.adaptivecache.integration.CachingTestApplication.Price;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An open circuit breaker through Spring's caching annotations: once failures on a killed server
 * open it, calls are refused before any I/O and each {@code @Cacheable}, {@code @Cacheable(sync =
 * true)} and {@code @CacheEvict} call still returns (a miss or a skipped write), at once rather than
 * after a timeout, never throwing; with the server back, the breaker closes and caching resumes.
 */
// Closed after the class: a cached context would keep reconnecting to this class's stopped server (and logging
// it) while later classes run.
@DirtiesContext
@SpringBootTest(classes = CachingTestApplication.class, properties = { "adaptive-cache.memcached.enabled=false",
        "adaptive-cache.redis.timeout=500ms", "adaptive-cache.redis.strategy.type=single",
        "adaptive-cache.redis.resilience.circuit-breaker.sliding-window-size=4",
        "adaptive-cache.redis.resilience.circuit-breaker.minimum-number-of-calls=4",
        "adaptive-cache.redis.resilience.circuit-breaker.wait-duration-in-open-state=1s",
        "adaptive-cache.redis.resilience.circuit-breaker.permitted-number-of-calls-in-half-open-state=1" })
class SpringCacheOpenBreakerIntegrationTests extends SpringCacheOnRedisTests {

    /** An open breaker answers without I/O: far less than the 500 ms timeout, with slack for a busy machine. */
    private static final Duration REFUSED_WITHIN = Duration.ofMillis(200);

    @Autowired
    @Qualifier("redisCacheTemplate")
    private ManagedCacheTemplate template;

    @Test
    void callsWithAnOpenBreakerShouldBeMissesAndSkippedWritesAndCachingShouldResumeAfter() throws Exception {
        this.service.price("sku-breaker");
        assertThat(this.template.stats().guardStatus().circuitState()).isEqualTo("CLOSED");

        redis.server().kill();
        try {
            await("the breaker to open").atMost(Duration.ofSeconds(20)).until(() -> {
                this.service.price("sku-opening");
                return this.template.stats().guardStatus().circuitState().equals("OPEN");
            });
            long rejected = this.template.sensors().totalRejected();
            long failures = this.cacheManager.failureCount();
            int computations = this.service.computations();

            assertThat(timed(() -> this.service.price("sku-breaker"))).isEqualTo(new Price("sku-breaker", 1100));
            assertThat(timed(() -> this.service.syncPrice("sku-breaker"))).isEqualTo(new Price("sku-breaker", 1100));
            timed(() -> {
                this.service.evict("sku-breaker");
                return null;
            });
            assertThat(this.service.computations()).as("both reads were misses").isEqualTo(computations + 2);
            assertThat(this.template.stats().guardStatus().circuitState()).as("still open: the calls were refused, not tried")
                    .isEqualTo("OPEN");
            assertThat(this.template.sensors().totalRejected()).as("refused by the breaker").isGreaterThan(rejected);
            assertThat(this.cacheManager.failureCount()).as("each refusal handled as a failure").isGreaterThan(failures);
        }
        finally {
            redis.server().restart();
        }

        await("caching to resume").atMost(Duration.ofSeconds(30)).until(() -> {
            int before = this.service.computations();
            this.service.price("sku-resumed");
            this.service.price("sku-resumed");
            return this.service.computations() == before + 1;
        });
        await("the breaker to close").atMost(Duration.ofSeconds(10))
                .until(() -> this.service.price("sku-resumed") != null && this.template.stats().guardStatus().circuitState().equals("CLOSED"));
    }

    /** Runs a call, which must return (not throw) within {@link #REFUSED_WITHIN}. */
    private static <T> T timed(java.util.concurrent.Callable<T> call) throws Exception {
        long start = System.nanoTime();
        T result = call.call();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered by the open breaker, not after a timeout")
                .isLessThanOrEqualTo(REFUSED_WITHIN);
        return result;
    }
}
