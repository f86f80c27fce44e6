package io.adaptivecache.integration;

import java.time.Duration;

import io.adaptivecache.integration.CachingTestApplication.Price;
import io.adaptivecache.integration.CachingTestApplication.PriceService;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cache.CacheManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Cacheable} end to end through the starter, against real servers. The short-lived cache's
 * TTL is 2 s, not 1 s: memcached's clock ticks once a second, so a 1 s entry may be gone a few
 * milliseconds after it was stored and the "second call hits" step would fail at random.
 */
@SpringBootTest(classes = CachingTestApplication.class, properties = { "adaptive-cache.cache.ttl.short-lived=2s",
        "adaptive-cache.cache.backends.short-lived=memcached" })
class SpringCacheIntegrationTests extends RealCacheServers {

    @Autowired
    private PriceService service;

    @Autowired
    private CacheManager cacheManager;

    @Test
    void theStartersCacheManagerShouldServeCacheable() {
        assertThat(this.cacheManager).isInstanceOf(AdaptiveCacheManager.class);
        int before = this.service.computations();

        Price first = this.service.price("sku-hit-miss");
        Price second = this.service.price("sku-hit-miss");
        this.service.price("sku-other");

        assertThat(second).isEqualTo(first).isEqualTo(new Price("sku-hit-miss", 1200));
        assertThat(this.service.computations() - before).as("one miss per key, then hits").isEqualTo(2);
    }

    @Test
    void entriesShouldExpireAfterTheirCachesTtl() {
        this.service.shortLived("sku-ttl");
        int afterFirst = this.service.computations();
        this.service.shortLived("sku-ttl");
        assertThat(this.service.computations()).isEqualTo(afterFirst);

        await().atMost(Duration.ofSeconds(6)).until(() -> {
            this.service.shortLived("sku-ttl");
            return this.service.computations() > afterFirst;
        });
        assertThat(memcached.server().totalItems()).isPositive();
    }
}
