package io.adaptivecache.benchmarks.http.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.cache.CacheManager;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each variant of the items application on a real Redis, in this JVM: it serves an item as JSON,
 * caches it after the first request (in the store its starter uses, under that starter's key), and
 * runs on the cache setup the variant names.
 */
class ItemsApplicationIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final HttpClient http = HttpClient.newHttpClient();

    @ParameterizedTest
    @CsvSource({"SPRING_DEFAULTS, 11, false", "SPRING_POOL, 12, true"})
    void bootsVariantsCacheInBootsRedisCacheManagerOnTheSharedConnectionWithCommonsPool2OnlyInThePoolVariant(AppVariant variant, long id,
            boolean pooled) throws Exception {
        try (ConfigurableApplicationContext context = start(variant)) {
            assertServesAndCaches(context, id, "items::" + id);
            assertThat(context.getBean(CacheManager.class)).isInstanceOf(RedisCacheManager.class);
            assertThat(context.getBeanNamesForType(AdaptiveCacheManager.class)).isEmpty();
            LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
            // As Boot leaves it, pool or not: plain commands go through the shared connection, a pool serves dedicated ones.
            assertThat(factory.getShareNativeConnection()).isTrue();
            assertThat(factory.getClientConfiguration() instanceof LettucePoolingClientConfiguration).as("a commons-pool2 pool")
                    .isEqualTo(pooled);
        }
    }

    @Test
    void adaptiveCachesDefaultsCacheThroughItsOwnManagerWithoutBootsRedisFactory() throws Exception {
        try (ConfigurableApplicationContext context = start(AppVariant.ADAPTIVE)) {
            assertServesAndCaches(context, 13, "items:*:13");
            AdaptiveCacheManager manager = context.getBean(AdaptiveCacheManager.class);
            assertThat(context.getBean(CacheManager.class)).isSameAs(manager);
            assertThat(manager.getNearCaches()).isEmpty();
            assertThat(context.getBeanNamesForType(RedisConnectionFactory.class)).isEmpty();
            assertThat(state(context)).contains("strategy=MULTI(");
        }
    }

    @Test
    void theNearCacheVariantPutsALocalTierInFront() throws Exception {
        try (ConfigurableApplicationContext context = start(AppVariant.ADAPTIVE_NEAR)) {
            assertServesAndCaches(context, 14, "items:*:14");
            assertThat(context.getBean(AdaptiveCacheManager.class).getNearCaches()).containsKey(ItemCatalog.CACHE);
            assertThat(context.getBeanNamesForType(RedisConnectionFactory.class)).isEmpty();
        }
    }

    private ConfigurableApplicationContext start(AppVariant variant) {
        String[] address = redis.server().address().split(":");
        return ItemsApplication.application(variant).run("--" + AppVariant.VARIANT_PROPERTY + "=" + variant.id(),
                "--" + AppVariant.HOST_PROPERTY + "=" + address[0], "--" + AppVariant.PORT_PROPERTY + "=" + address[1]);
    }

    /**
     * Two requests for one item: the same JSON, one load, and the item stored in Redis under the
     * starter's key (Boot's {@code <cache>::<key>}; adaptive-cache's {@code <cache>:<generation>:<key>}).
     */
    private void assertServesAndCaches(ConfigurableApplicationContext context, long id, String keyPattern) throws Exception {
        String first = get(context, "/items/" + id);
        String second = get(context, "/items/" + id);

        assertThat(first).startsWith("{\"id\":" + id + ",\"sku\":\"SKU-000000" + id + "\"").isEqualTo(second);
        assertThat(context.getBean(ItemCatalog.class).loads()).isEqualTo(1);
        assertThat(redis.server().command("KEYS", keyPattern).lines()).as("Redis's keys %s", keyPattern).hasSize(1);
        assertThat(state(context)).contains("loads=1 ");
    }

    private String state(ConfigurableApplicationContext context) throws Exception {
        return get(context, "/bench/state");
    }

    private String get(ConfigurableApplicationContext context, String path) throws Exception {
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
        return response.body();
    }
}
