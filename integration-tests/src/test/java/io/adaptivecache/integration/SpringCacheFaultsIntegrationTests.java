package io.adaptivecache.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.integration.CachingTestApplication.Price;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults other than a killed server, through Spring's caching annotations: a frozen server (every
 * call times out), {@code @Cacheable(sync = true)} with concurrent callers, and {@code @CacheEvict}.
 * During each fault every call returns the service's own answer (a miss) or skips its write, within
 * what the configured timeout allows, and never throws; once the server is back, caching works
 * again with no restart. No circuit breaker here, so that each call meets the fault itself
 * ({@link SpringCacheOpenBreakerIntegrationTests} has the breaker).
 */
// Closed after the class: a cached context would keep reconnecting to this class's stopped server (and logging
// it) while later classes run.
@DirtiesContext
@SpringBootTest(classes = CachingTestApplication.class, properties = { "adaptive-cache.memcached.enabled=false",
        "adaptive-cache.redis.timeout=500ms", "adaptive-cache.redis.strategy.type=single",
        "adaptive-cache.redis.resilience.circuit-breaker.enabled=false" })
class SpringCacheFaultsIntegrationTests extends SpringCacheOnRedisTests {

    private static final Duration TIMEOUT = Duration.ofMillis(500);

    /** Scheduling and GC slack on top of the timeouts a call may spend; below one more timeout. */
    private static final Duration SLACK = Duration.ofMillis(400);

    private final ExecutorService callers = Executors.newFixedThreadPool(8);

    private boolean killed;

    @AfterEach
    void serverBack() throws InterruptedException {
        this.callers.shutdownNow();
        this.callers.awaitTermination(10, TimeUnit.SECONDS);
        redis.server().thaw();
        if (this.killed) {
            redis.server().restart();
        }
    }

    @Test
    void aFrozenServerShouldCostEachCallATimedOutMissNotAFailure() throws Exception {
        awaitCachingAgain("sku-frozen");
        long failures = this.cacheManager.failureCount();
        int computations = this.service.computations();

        redis.server().freeze();
        for (int i = 0; i < 3; i++) {
            // A read that times out, then a write that times out: two timeouts at most.
            assertThat(timed(() -> this.service.price("sku-frozen"), TIMEOUT.multipliedBy(2)))
                    .isEqualTo(new Price("sku-frozen", 1000));
        }
        assertThat(this.service.computations()).as("every call during the freeze was a miss").isEqualTo(computations + 3);
        timed(() -> {
            this.service.evict("sku-frozen");
            return null;
        }, TIMEOUT);
        List<Future<Price>> concurrent = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < 8; i++) {
            String sku = "sku-frozen-" + i;
            concurrent.add(this.callers.submit(() -> {
                start.await();
                return timed(() -> this.service.price(sku), TIMEOUT.multipliedBy(2));
            }));
        }
        start.countDown();
        for (int i = 0; i < 8; i++) {
            assertThat(concurrent.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(new Price("sku-frozen-" + i, 1200));
        }
        assertThat(this.cacheManager.failureCount()).as("each timeout was handled as a failure").isGreaterThanOrEqualTo(failures + 3 * 2 + 1 + 8);

        redis.server().thaw();
        awaitCachingAgain("sku-after-freeze");
    }

    @Test
    void syncCacheableShouldLoadOnAFrozenOrKilledServerAndCacheAgainAfter() throws Exception {
        awaitCachingAgain("sku-before-sync");
        this.service.syncPrice("sku-sync");
        int computations = this.service.computations();
        assertThat(this.service.syncPrice("sku-sync")).isEqualTo(new Price("sku-sync", 800));
        assertThat(this.service.computations()).as("served from the cache").isEqualTo(computations);

        redis.server().freeze();
        assertConcurrentSyncCallsLoad("sku-sync", TIMEOUT.multipliedBy(2));
        redis.server().thaw();
        redis.server().kill();
        this.killed = true;
        assertConcurrentSyncCallsLoad("sku-sync", TIMEOUT.multipliedBy(2));

        redis.server().restart();
        this.killed = false;
        await("sync loads cached again").atMost(Duration.ofSeconds(30)).until(() -> {
            int before = this.service.computations();
            this.service.syncPrice("sku-sync-after");
            this.service.syncPrice("sku-sync-after");
            return this.service.computations() == before + 1;
        });
    }

    @Test
    void cacheEvictShouldBeSkippedOnAKilledServerAndEvictAgainAfter() throws Exception {
        awaitCachingAgain("sku-evict");
        long failures = this.cacheManager.failureCount();

        redis.server().kill();
        this.killed = true;
        for (int i = 0; i < 3; i++) {
            timed(() -> {
                this.service.evict("sku-evict");
                return null;
            }, TIMEOUT);
        }
        assertThat(this.cacheManager.failureCount()).as("each skipped evict was handled").isGreaterThanOrEqualTo(failures + 3);

        redis.server().restart();
        this.killed = false;
        awaitCachingAgain("sku-evict-after");
        // An evict reaches the server again: the cached price is gone, the next call a miss that caches it anew.
        int before = this.service.computations();
        this.service.evict("sku-evict-after");
        this.service.price("sku-evict-after");
        this.service.price("sku-evict-after");
        assertThat(this.service.computations()).isEqualTo(before + 1);
    }

    /** Eight callers of one key at once: each gets the loaded price, within the timeouts the lead caller may spend. */
    private void assertConcurrentSyncCallsLoad(String sku, Duration timeouts) throws Exception {
        int computations = this.service.computations();
        List<Future<Price>> calls = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < 8; i++) {
            calls.add(this.callers.submit(() -> {
                start.await();
                return timed(() -> this.service.syncPrice(sku), timeouts);
            }));
        }
        start.countDown();
        for (Future<Price> call : calls) {
            assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo(new Price(sku, sku.length() * 100L));
        }
        assertThat(this.service.computations() - computations).as("the loader ran, at most once per caller").isBetween(1, 8);
    }

    /** Until a price is computed once and then served from the cache: the server is reachable and caching works. */
    private void awaitCachingAgain(String sku) {
        await("caching again").atMost(Duration.ofSeconds(30)).until(() -> {
            int before = this.service.computations();
            this.service.price(sku);
            this.service.price(sku);
            return this.service.computations() == before + 1;
        });
    }

    /** Runs a call, which must return (not throw) within the timeouts it may spend plus {@link #SLACK}. */
    private static <T> T timed(java.util.concurrent.Callable<T> call, Duration timeouts) throws Exception {
        long start = System.nanoTime();
        T result = call.call();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).as("returned within " + timeouts.toMillis() + " ms of timeouts plus " + SLACK.toMillis() + " ms")
                .isLessThanOrEqualTo(timeouts.plus(SLACK));
        return result;
    }
}
