package io.adaptivecache.integration;

import io.adaptivecache.integration.CachingTestApplication.PriceService;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The fixture of the Spring Cache fault tests: {@link CachingTestApplication} on a Redis server of
 * the test class's own (started before the class, stopped after it), its cached service and its
 * cache manager. Each subclass states its properties in its own {@code @SpringBootTest}. The
 * context is closed with the class: its server is gone then, and a cached context would go on
 * reconnecting to it for the rest of the run.
 */
@DirtiesContext
abstract class SpringCacheOnRedisTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @DynamicPropertySource
    static void cacheServers(DynamicPropertyRegistry registry) {
        registry.add("adaptive-cache.redis.url", redis::uri);
    }

    @Autowired
    PriceService service;

    @Autowired
    AdaptiveCacheManager cacheManager;
}
