package io.adaptivecache.integration;

import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A real redis-server and memcached for a test class (started before it, stopped after it, on
 * free loopback ports), and the properties that point the application at them. Each class owns
 * its servers, so it owns its application context too: a context cached from another class would
 * point at servers that have stopped.
 */
@DirtiesContext
abstract class RealCacheServers {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @DynamicPropertySource
    static void cacheServers(DynamicPropertyRegistry registry) {
        registry.add("adaptive-cache.redis.url", redis::uri);
        registry.add("adaptive-cache.memcached.servers", memcached::addresses);
    }
}
