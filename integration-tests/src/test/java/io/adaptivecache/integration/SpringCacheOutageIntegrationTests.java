package io.adaptivecache.integration;

import java.time.Duration;

import io.adaptivecache.integration.CachingTestApplication.Price;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A cache server killed mid-test costs misses, never a failed request, and the cache recovers when it returns. */
@SpringBootTest(classes = CachingTestApplication.class, properties = { "adaptive-cache.memcached.enabled=false",
        "adaptive-cache.redis.timeout=500ms", "adaptive-cache.redis.strategy.type=single" })
class SpringCacheOutageIntegrationTests extends SpringCacheOnRedisTests {

    @Test
    void aKilledServerShouldTurnReadsIntoMissesWithoutFailingTheCaller() {
        this.service.price("sku-outage");
        int cachedComputations = this.service.computations();
        assertThat(this.service.price("sku-outage")).isEqualTo(new Price("sku-outage", 1000));
        assertThat(this.service.computations()).isEqualTo(cachedComputations);

        redis.server().kill();

        for (int i = 0; i < 5; i++) {
            assertThat(this.service.price("sku-outage")).isEqualTo(new Price("sku-outage", 1000));
        }
        assertThat(this.service.computations()).as("every call was a miss").isEqualTo(cachedComputations + 5);
        assertThat(this.cacheManager.failureCount()).isPositive();

        redis.server().restart();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            int before = this.service.computations();
            this.service.price("sku-recovered");
            this.service.price("sku-recovered");
            return this.service.computations() == before + 1;
        });
    }
}
