package io.adaptivecache.autoconfigure.cache;

import java.io.Serializable;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.adaptivecache.autoconfigure.ContextRunners;
import io.adaptivecache.spring.cache.AdaptiveCache;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.adaptivecache.spring.cache.CacheValueSerializer;
import io.adaptivecache.spring.cache.JdkCacheValueSerializer;
import io.adaptivecache.spring.cache.JsonCacheValueSerializer;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class AdaptiveCacheSpringCacheAutoConfigurationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners
            .onBothServers(redis, memcached, AdaptiveCacheSpringCacheAutoConfiguration.class)
            .withPropertyValues("adaptive-cache.cache.key-prefix=" + java.util.UUID.randomUUID() + ":");

    @Test
    void withoutEnableCachingThereShouldBeNoCacheManager() {
        this.contextRunner.run(context -> assertThat(context).doesNotHaveBean(CacheManager.class));
    }

    @Test
    void cacheableShouldHitAfterTheFirstCallAndEvictShouldMiss() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(AdaptiveCacheManager.class);
            ProductService service = context.getBean(ProductService.class);

            assertThat(service.find(1)).isEqualTo(new Product(1, "product-1"));
            assertThat(service.find(1)).isEqualTo(new Product(1, "product-1"));
            assertThat(service.find(2)).isEqualTo(new Product(2, "product-2"));
            assertThat(service.lookups()).isEqualTo(2);

            service.evict(1);
            service.find(1);
            assertThat(service.lookups()).isEqualTo(3);
        });
    }

    @Test
    void evictingAllEntriesShouldMissEveryKeyAfterwards() {
        withProductService(service -> {
            service.find(1);
            service.find(2);

            service.evictAll();
            service.find(1);
            service.find(2);

            assertThat(service.lookups()).isEqualTo(4);
        });
    }

    @Test
    void nullResultsShouldBeCachedToo() {
        withProductService(service -> {
            assertThat(service.find(-1)).isNull();
            assertThat(service.find(-1)).isNull();
            assertThat(service.lookups()).isEqualTo(1);
        });
    }

    @Test
    void ttlsAndBackendsShouldFollowThePerCacheSettings() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class)
                .withPropertyValues("adaptive-cache.cache.default-ttl=1s", "adaptive-cache.cache.ttl.stable=1h",
                        "adaptive-cache.cache.backends.stable=memcached")
                .run(context -> {
                    CacheManager manager = context.getBean(CacheManager.class);
                    AdaptiveCache products = (AdaptiveCache) manager.getCache("products");
                    AdaptiveCache stable = (AdaptiveCache) manager.getCache("stable");
                    assertThat(products.getTtl()).isEqualTo(Duration.ofSeconds(1));
                    assertThat(products.getNativeCache().name()).isEqualTo("redis");
                    assertThat(stable.getTtl()).isEqualTo(Duration.ofHours(1));
                    assertThat(stable.getNativeCache().name()).isEqualTo("memcached");

                    ProductService service = context.getBean(ProductService.class);
                    service.find(7);
                    service.find(7);
                    assertThat(service.lookups()).isEqualTo(1);
                    await().atMost(Duration.ofSeconds(6)).until(() -> {
                        service.find(7);
                        return service.lookups() > 1;
                    });
                });
    }

    @Test
    void jsonShouldBeTheDefaultSerializerAndJdkAnOption() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class)
                .run(context -> assertThat(context.getBean(CacheValueSerializer.class)).isInstanceOf(JsonCacheValueSerializer.class));
        this.contextRunner.withUserConfiguration(CachingConfiguration.class).withPropertyValues("adaptive-cache.cache.serializer=jdk")
                .run(context -> {
                    assertThat(context.getBean(CacheValueSerializer.class)).isInstanceOf(JdkCacheValueSerializer.class);
                    ProductService service = context.getBean(ProductService.class);
                    service.find(3);
                    assertThat(service.find(3)).isEqualTo(new Product(3, "product-3"));
                    assertThat(service.lookups()).isEqualTo(1);
                });
    }

    @Test
    void keysWithSpacesOrOfAnyLengthShouldWorkOnMemcached() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class)
                .withPropertyValues("adaptive-cache.cache.backend=memcached").run(context -> {
                    ProductService service = context.getBean(ProductService.class);
                    String awkward = "a key with spaces\r\n and more " + "x".repeat(400);

                    service.describe(awkward);
                    service.describe(awkward);

                    assertThat(service.lookups()).isEqualTo(1);
                });
    }

    @Test
    void aUserCacheManagerShouldWin() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class, UserCacheManagerConfiguration.class)
                .run(context -> assertThat(context.getBean(CacheManager.class)).isInstanceOf(ConcurrentMapCacheManager.class));
    }

    @Test
    void disabledByProperty() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class).withPropertyValues("adaptive-cache.cache.enabled=false")
                .run(context -> {
                    // With ours switched off and no other cache manager here, @EnableCaching has none to use.
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasMessageContaining("No qualifying bean of type 'org.springframework.cache.CacheManager'");
                });
    }

    @Test
    void aCacheOnADisabledBackendShouldFailStartupNamingTheProperty() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class)
                .withPropertyValues("adaptive-cache.memcached.enabled=false", "adaptive-cache.cache.backends.stable=memcached")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("adaptive-cache.cache.backends.stable");
                });
    }

    @Test
    void aBackendOutageShouldTurnReadsIntoMissesWithoutFailingTheCaller() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class)
                .withPropertyValues("adaptive-cache.cache.backend=redis", "adaptive-cache.redis.timeout=300ms").run(context -> {
                    ProductService service = context.getBean(ProductService.class);
                    service.find(5);
                    context.getBean("redisCacheTemplate", io.adaptivecache.CacheTemplate.class).close();

                    assertThat(service.find(5)).isEqualTo(new Product(5, "product-5"));
                    assertThat(service.find(5)).isEqualTo(new Product(5, "product-5"));
                    assertThat(service.lookups()).isEqualTo(3);
                    assertThat(context.getBean(AdaptiveCacheManager.class).failureCount()).isPositive();
                });
    }

    @Test
    void rethrowShouldLetTheCallerSeeTheFailure() {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class).withPropertyValues("adaptive-cache.cache.on-error=rethrow")
                .run(context -> {
                    ProductService service = context.getBean(ProductService.class);
                    context.getBean("redisCacheTemplate", io.adaptivecache.CacheTemplate.class).close();

                    org.assertj.core.api.Assertions.assertThatThrownBy(() -> service.find(9))
                            .isInstanceOf(io.adaptivecache.CacheConnectionException.class);
                });
    }

    public record Product(int id, String name) implements Serializable {
    }

    public static class ProductService {

        private final AtomicInteger lookups = new AtomicInteger();

        /** A method, not a field: the bean is a caching proxy, whose own fields are not this one's. */
        public int lookups() {
            return this.lookups.get();
        }

        @Cacheable("products")
        public Product find(int id) {
            this.lookups.incrementAndGet();
            return id < 0 ? null : new Product(id, "product-" + id);
        }

        @Cacheable("stable")
        public String describe(String key) {
            this.lookups.incrementAndGet();
            return "described " + key.length();
        }

        @CacheEvict("products")
        public void evict(int id) {
        }

        @CacheEvict(cacheNames = "products", allEntries = true)
        public void evictAll() {
        }
    }

    /** Runs {@code test} on the cached service of a context with caching on and nothing else of the test's. */
    private void withProductService(ThrowingConsumer<ProductService> test) {
        this.contextRunner.withUserConfiguration(CachingConfiguration.class)
                .run(context -> test.accept(context.getBean(ProductService.class)));
    }

    /**
     * Caching on, and the cached service as a bean of its own; its package is the application's
     * (as {@code @SpringBootApplication} registers it), so that the JSON serializer builds Products.
     */
    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    @AutoConfigurationPackage
    @Import(ProductService.class)
    static class CachingConfiguration {
    }

    @Configuration(proxyBeanMethods = false)
    static class UserCacheManagerConfiguration {

        @Bean
        CacheManager cacheManager() {
            return new ConcurrentMapCacheManager();
        }
    }
}
