package io.adaptivecache.autoconfigure.cache;

import java.time.Duration;
import java.util.UUID;

import io.adaptivecache.autoconfigure.AdaptiveCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.cache.AdaptiveCacheNearCacheAutoConfigurationTests.CachingConfiguration;
import io.adaptivecache.autoconfigure.cache.AdaptiveCacheNearCacheAutoConfigurationTests.NameService;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.TlsMaterial;
import io.adaptivecache.near.NearCacheTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.adaptivecache.autoconfigure.cache.AdaptiveCacheNearCacheAutoConfigurationTests.READS;
import static io.adaptivecache.autoconfigure.cache.AdaptiveCacheNearCacheAutoConfigurationTests.getCalls;
import static io.adaptivecache.autoconfigure.cache.AdaptiveCacheNearCacheAutoConfigurationTests.readUntilServedLocally;
import static io.adaptivecache.autoconfigure.cache.AdaptiveCacheNearCacheAutoConfigurationTests.servingNearCache;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The near cache of a Spring cache stored in a Redis reached over TLS, trusted only through a
 * Spring Boot SSL bundle (the JVM's trust store does not know the test certificate): its
 * invalidation connection must use the template's TLS, or it never connects and the near cache
 * never serves locally.
 */
class AdaptiveCacheNearCacheTlsTests {

    private static final String BUNDLE = "near-tls";

    private static final TlsMaterial tls = TlsMaterial.selfSigned();
    private static final RedisServer tlsRedis = RedisServer.withTls(tls);

    /** Fresh keys for each test: the server outlives it, and another test's rename would otherwise be read. */
    private final String keyPrefix = UUID.randomUUID() + ":";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class, SslAutoConfiguration.class,
                    AdaptiveCacheSpringCacheAutoConfiguration.class))
            .withUserConfiguration(CachingConfiguration.class)
            .withPropertyValues("adaptive-cache.memcached.enabled=false", "adaptive-cache.cache.key-prefix=" + this.keyPrefix,
                    "spring.ssl.bundle.pem." + BUNDLE + ".truststore.certificate=file:" + tls.certificate(),
                    "adaptive-cache.cache.near.caches.products.enabled=true", "adaptive-cache.cache.near.heartbeat-interval=100ms",
                    "adaptive-cache.cache.near.heartbeat-timeout=200ms");

    @BeforeAll
    static void startServer() {
        tlsRedis.start();
    }

    @AfterAll
    static void stopServer() {
        tlsRedis.stop();
    }

    /**
     * Each way the template gets its TLS: a {@code rediss://} URL with the starter's bundle; host
     * and port, where naming the bundle is what turns TLS on; Spring Data Redis's settings, with
     * its own bundle.
     */
    @ParameterizedTest
    @ValueSource(strings = { "url", "host-and-port", "spring-data-redis" })
    void theInvalidationConnectionShouldUseTheTemplatesSslBundleSoTheNearCacheServesAndIsInvalidated(String settings) {
        ApplicationContextRunner instances = this.contextRunner.withPropertyValues(connection(settings));
        instances.run(first -> instances.run(second -> {
            assertThat(first).hasNotFailed();
            NameService reader = first.getBean(NameService.class);
            // Serving needs an invalidation connection with tracking on: over TLS, so it trusted the bundle.
            NearCacheTemplate near = servingNearCache(first, "products");
            readUntilServedLocally(reader, near);

            long getsBefore = getCalls(tlsRedis);
            long hitsBefore = near.stats().localHits();
            for (int i = 0; i < READS; i++) {
                assertThat(reader.find(1)).isEqualTo("name-1");
            }
            // As in AdaptiveCacheNearCacheAutoConfigurationTests: a generation refresh or a late self-invalidation may reach the server.
            assertThat(getCalls(tlsRedis) - getsBefore).as("GETs the server served").isLessThanOrEqualTo(2);
            assertThat(near.stats().localHits() - hitsBefore).as("reads answered locally").isGreaterThanOrEqualTo(READS - 2);

            long invalidationsBefore = near.stats().serverInvalidations();
            second.getBean(NameService.class).rename(1, "renamed-1");

            // The copy would otherwise be served for its whole time to live (5 minutes).
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                    .untilAsserted(() -> assertThat(reader.find(1)).isEqualTo("renamed-1"));
            assertThat(near.stats().serverInvalidations()).as("invalidations received over TLS").isGreaterThan(invalidationsBefore);
        }));
    }

    private static String[] connection(String settings) {
        String port = Integer.toString(tlsRedis.tlsPort());
        return switch (settings) {
            case "url" -> new String[] { "adaptive-cache.redis.url=rediss://127.0.0.1:" + port,
                    "adaptive-cache.redis.ssl.bundle=" + BUNDLE };
            case "host-and-port" -> new String[] { "adaptive-cache.redis.host=127.0.0.1", "adaptive-cache.redis.port=" + port,
                    "adaptive-cache.redis.ssl.bundle=" + BUNDLE };
            case "spring-data-redis" -> new String[] { "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port,
                    "spring.data.redis.ssl.bundle=" + BUNDLE };
            default -> throw new IllegalArgumentException(settings);
        };
    }
}
