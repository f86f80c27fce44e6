package io.adaptivecache.autoconfigure.cache;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.endpoint.AdaptiveCacheEndpointAutoConfiguration;
import io.adaptivecache.autoconfigure.metrics.AdaptiveCacheMetricsAutoConfiguration;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.near.NearCacheTemplate;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.spring.cache.AdaptiveCache;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The near cache of Spring caches, wired by the auto-configuration, against real servers: what
 * the Redis server counts (GET calls in {@code INFO commandstats}) shows whether reads were
 * answered locally.
 */
class AdaptiveCacheNearCacheAutoConfigurationTests {

    static final int READS = 200;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final String keyPrefix = UUID.randomUUID() + ":";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class, AdaptiveCacheSpringCacheAutoConfiguration.class,
                    AdaptiveCacheMetricsAutoConfiguration.class, AdaptiveCacheEndpointAutoConfiguration.class))
            .withUserConfiguration(CachingConfiguration.class)
            .withPropertyValues("adaptive-cache.redis.url=" + redis.uri(), "adaptive-cache.memcached.servers=" + memcached.addresses(),
                    "adaptive-cache.cache.key-prefix=" + this.keyPrefix, "adaptive-cache.cache.near.heartbeat-interval=100ms",
                    "adaptive-cache.cache.near.heartbeat-timeout=200ms", "management.endpoints.web.exposure.include=adaptivecache");

    @Test
    void aCacheWithANearCacheShouldAnswerRepeatedReadsWithoutTheServer() {
        this.contextRunner.withPropertyValues("adaptive-cache.cache.near.caches.products.enabled=true").run(context -> {
            NameService service = context.getBean(NameService.class);
            NearCacheTemplate near = servingNearCache(context, "products");
            readUntilServedLocally(service, near);

            long before = getCalls(redis.server());
            long hitsBefore = near.stats().localHits();
            for (int i = 0; i < READS; i++) {
                assertThat(service.find(1)).isEqualTo("name-1");
            }
            // A generation refresh (once a second), or a read after the server's late report of the
            // first read's own store, may still reach the server; the other reads do not.
            assertThat(getCalls(redis.server()) - before).isLessThanOrEqualTo(2);
            assertThat(near.stats().localHits() - hitsBefore).isGreaterThanOrEqualTo(READS - 2);
            assertThat(service.lookups()).isEqualTo(1);
        });
    }

    @Test
    void nearCachesShouldBeOffByDefault() {
        this.contextRunner.run(context -> {
            NameService service = context.getBean(NameService.class);
            service.find(1);
            long before = getCalls(redis.server());
            for (int i = 0; i < READS; i++) {
                service.find(1);
            }
            assertThat(getCalls(redis.server()) - before).isGreaterThanOrEqualTo(READS);
            assertThat(context.getBean(AdaptiveCacheManager.class).getNearCaches()).isEmpty();
            assertThat(context).doesNotHaveBean(InvalidationSource.class);
        });
    }

    @Test
    void aWriteThroughAnotherInstanceShouldReachTheNearCacheThroughItsInvalidation() {
        ApplicationContextRunner instances = this.contextRunner.withPropertyValues("adaptive-cache.cache.near.enabled=true");
        instances.run(first -> instances.run(second -> {
            NameService reader = first.getBean(NameService.class);
            servingNearCache(first, "products");
            reader.find(7);
            reader.find(7);
            long before = getCalls(redis.server());
            for (int i = 0; i < READS; i++) {
                assertThat(reader.find(7)).isEqualTo("name-7");
            }
            assertThat(getCalls(redis.server()) - before).as("served locally before the write").isLessThanOrEqualTo(2);

            second.getBean(NameService.class).rename(7, "renamed-7");

            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                    .untilAsserted(() -> assertThat(reader.find(7)).isEqualTo("renamed-7"));
            assertThat(nearCache(first, "products").stats().serverInvalidations()).isPositive();
        }));
    }

    @Test
    void aMemcachedCacheShouldGetANearCacheBoundedByMaxStaleness() {
        this.contextRunner.withPropertyValues("adaptive-cache.cache.backends.stable=memcached",
                "adaptive-cache.cache.near.caches.stable.enabled=true", "adaptive-cache.cache.near.caches.stable.max-staleness=700ms")
                .run(context -> {
                    NameService service = context.getBean(NameService.class);
                    // A miss, a read that keeps the value just stored, then a local hit.
                    service.describe("a");
                    service.describe("a");
                    service.describe("a");
                    NearCacheTemplate near = nearCache(context, "stable");
                    assertThat(near.remote().name()).isEqualTo("memcached");
                    assertThat(near.stalenessBound()).isEqualTo(Duration.ofMillis(700));
                    assertThat(near.stats().localHits()).isPositive();
                    // Only a Spring cache stored in Redis needs the invalidation connection.
                    assertThat(context).doesNotHaveBean(InvalidationSource.class);
                });
    }

    @Test
    void theMetersShouldShowBothTiersOfANearCache() {
        this.contextRunner.withBean(SimpleMeterRegistry.class).withPropertyValues("adaptive-cache.cache.near.caches.products.enabled=true")
                .run(context -> {
                    SimpleMeterRegistry registry = context.getBean(SimpleMeterRegistry.class);
                    context.getBean("adaptiveNearCacheMeterBinder", MeterBinder.class).bindTo(registry);
                    NameService service = context.getBean(NameService.class);
                    readUntilServedLocally(service, servingNearCache(context, "products"));

                    FunctionCounter localHits = registry.find("cache.gets").tags("cache", "products", "tier", "local", "result", "hit")
                            .functionCounter();
                    assertThat(localHits).isNotNull();
                    assertThat(localHits.count()).isPositive();
                    assertThat(registry.find("cache.gets").tags("cache", "products", "tier", "remote").meters()).isNotEmpty();
                    assertThat(registry.find("cache.invalidations").tags("cache", "products", "tier", "local").meters()).isNotEmpty();
                    assertThat(registry.find("cache.near.invalidation.lag").tags("cache", "products").meters()).isNotEmpty();
                });
    }

    @Test
    void theEndpointShouldShowTheNearCacheWithItsTemplate() {
        this.contextRunner.withPropertyValues("adaptive-cache.cache.near.caches.products.enabled=true").run(context -> {
            NameService service = context.getBean(NameService.class);
            readUntilServedLocally(service, servingNearCache(context, "products"));

            AdaptiveCacheEndpoint endpoint = context.getBean(AdaptiveCacheEndpoint.class);
            assertThat(endpoint.template("redis").nearCaches()).singleElement().satisfies(near -> {
                assertThat(near.name()).isEqualTo("products");
                assertThat(near.serving()).isTrue();
                assertThat(near.hits()).isPositive();
                assertThat(near.entries()).isPositive();
                assertThat(near.stalenessBoundMillis()).isEqualTo(300);
            });
            assertThat(endpoint.template("memcached").nearCaches()).isEmpty();
        });
    }

    /**
     * The application's own Redis template bean reaches another server than the properties, from
     * which the invalidation source is built: that server's writes are never reported, so the near
     * cache must never serve locally (every read reaching the template's server) and must see
     * another client's delete there at once.
     */
    @Test
    void aTemplateBeanOfTheApplicationsOwnOnAnotherServerShouldNeverBeServedLocally() {
        RedisServer other = new RedisServer();
        other.start();
        try {
            this.contextRunner.withPropertyValues("adaptive-cache.cache.near.caches.products.enabled=true")
                    .withBean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE, ManagedCacheTemplate.class,
                            () -> RedisCacheTemplates.builder().uri("redis://" + other.address()).name("redis").build())
                    .run(context -> {
                        NameService service = context.getBean(NameService.class);
                        NearCacheTemplate near = nearCache(context, "products");
                        service.find(1);
                        long before = getCalls(other);
                        for (int i = 0; i < READS; i++) {
                            assertThat(service.find(1)).isEqualTo("name-1");
                        }
                        assertThat(getCalls(other) - before).as("every read reached the template's server").isEqualTo(READS);
                        assertThat(near.stats().localHits()).isZero();
                        assertThat(near.isServingLocally()).isFalse();

                        // Another client's delete on the template's server: the next read must miss and load.
                        int lookups = service.lookups();
                        String stored = other.command("KEYS", this.keyPrefix + "products:*");
                        assertThat(stored).as("the one key the cache stored").isNotBlank().doesNotContain("\n");
                        assertThat(other.command("DEL", stored)).isEqualTo("1");
                        assertThat(service.find(1)).isEqualTo("name-1");
                        assertThat(service.lookups()).as("the delete, seen at once").isEqualTo(lookups + 1);
                    });
        }
        finally {
            other.stop();
        }
    }

    @Test
    void closingTheContextShouldCloseTheNearCachesAndTheInvalidationConnection() {
        AtomicReference<NearCacheTemplate> near = new AtomicReference<>();
        this.contextRunner.withPropertyValues("adaptive-cache.cache.near.caches.products.enabled=true").run(context -> {
            near.set(servingNearCache(context, "products"));
            assertThat(redis.server().clientNames()).contains("adaptive-cache-invalidations-redis");
        });
        assertThat(near.get().isServingLocally()).isFalse();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> !redis.server().clientNames().contains("adaptive-cache-invalidations-redis"));
    }

    @Test
    void aNearCacheWithoutCaffeineShouldFailStartupNamingTheDependency() {
        this.contextRunner.withClassLoader(new FilteredClassLoader("com.github.benmanes.caffeine"))
                .withPropertyValues("adaptive-cache.cache.near.enabled=true")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("adaptive-cache.cache.near.enabled")
                            .hasMessageContaining("com.github.ben-manes.caffeine:caffeine");
                });
    }

    static NearCacheTemplate nearCache(ApplicationContext context, String cacheName) {
        AdaptiveCache cache = (AdaptiveCache) context.getBean(AdaptiveCacheManager.class).getCache(cacheName);
        assertThat(cache.getNativeCache()).isInstanceOf(NearCacheTemplate.class);
        return (NearCacheTemplate) cache.getNativeCache();
    }

    /** The near cache once its invalidation connection tracks its prefix: before that it does not serve. */
    static NearCacheTemplate servingNearCache(ApplicationContext context, String cacheName) {
        NearCacheTemplate near = nearCache(context, cacheName);
        await().atMost(Duration.ofSeconds(10)).until(near::isServingLocally);
        return near;
    }

    /**
     * Reads until one is answered locally: the value the first read stored in the server may be
     * read, kept and then dropped by the server's report of that very store (its own write comes
     * back as an invalidation), so the first local hit can take a few reads.
     */
    static void readUntilServedLocally(NameService service, NearCacheTemplate near) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> {
            service.find(1);
            return near.stats().localHits() > 0;
        });
    }

    /** GET calls the server has served, from INFO commandstats (none yet: no line). */
    static long getCalls(RedisServer server) {
        try {
            String stats = server.info("commandstats", "cmdstat_get");
            return Long.parseLong(stats.substring(stats.indexOf("calls=") + 6, stats.indexOf(',')));
        }
        catch (IllegalStateException ex) {
            return 0;
        }
    }

    /** Caching on, and the cached service as a bean of its own. */
    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    @Import(NameService.class)
    static class CachingConfiguration {
    }

    /** Names by id, cached; counts the lookups that reached it. */
    public static class NameService {

        private final AtomicInteger lookups = new AtomicInteger();
        private final Map<Integer, String> names = new ConcurrentHashMap<>();

        public int lookups() {
            return this.lookups.get();
        }

        @Cacheable("products")
        public String find(int id) {
            this.lookups.incrementAndGet();
            return this.names.getOrDefault(id, "name-" + id);
        }

        @CachePut(cacheNames = "products", key = "#id")
        public String rename(int id, String name) {
            this.names.put(id, name);
            return name;
        }

        @Cacheable("stable")
        public String describe(String key) {
            this.lookups.incrementAndGet();
            return "described-" + key;
        }
    }
}
