package io.adaptivecache.micrometer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.near.NearCacheSettings;
import io.adaptivecache.near.NearCacheTemplate;
import io.adaptivecache.near.NearCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.tracking.RedisInvalidations;
import io.adaptivecache.testservers.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A near cache's meters on a real Redis, per tier, by Micrometer's cache conventions. */
class NearCacheMetersIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private ManagedCacheTemplate template;
    private InvalidationSource invalidations;
    private NearCacheTemplate near;
    private final MeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() {
        template = RedisCacheTemplates.builder().uri(redis.uri()).start();
        invalidations = RedisInvalidations.builder().uri(redis.uri()).start();
        near = NearCacheTemplates.redis(template, invalidations,
                NearCacheSettings.builder().name("users").keyPrefixes("users:").maximumEntries(2).build());
        NearCacheMeters.bind(near, registry, Tags.of("app", "test"));
    }

    @AfterEach
    void stop() {
        near.close();
        invalidations.close();
        template.close();
    }

    private double counter(String name, String... tags) {
        return registry.get(name).tags("cache", "users", "app", "test").tags(tags).functionCounter().count();
    }

    @Test
    void countsEachTierByTheCacheConventions() {
        byte[] value = "v".getBytes(StandardCharsets.UTF_8);
        near.set("users:1", value, Duration.ZERO);
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            near.get("users:1");
            return near.stats().localHits() > 0;
        });
        // Written by another instance (straight to the server): read from the server, then kept.
        template.set("users:2", value, Duration.ZERO);
        near.get("users:2");
        near.get("users:absent");
        double localHits = counter("cache.gets", "tier", "local", "result", "hit");
        assertThat(localHits).isEqualTo(near.stats().localHits()).isPositive();
        assertThat(counter("cache.gets", "tier", "local", "result", "miss"))
                .isEqualTo(near.stats().localMisses() + near.stats().bypassedReads());
        assertThat(counter("cache.gets", "tier", "remote", "result", "miss")).isEqualTo(near.stats().remoteMisses()).isPositive();
        assertThat(counter("cache.gets", "tier", "remote", "result", "hit")).isEqualTo(near.stats().remoteHits()).isPositive();
        assertThat(counter("cache.puts", "tier", "remote")).isEqualTo(1);
        assertThat(counter("cache.puts", "tier", "local")).isEqualTo(near.stats().localPuts()).isPositive();
        assertThat(counter("cache.invalidations", "tier", "local", "source", "write")).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> counter("cache.invalidations", "tier", "local", "source", "server") > 0);
        assertThat(registry.get("cache.near.serving").tags("cache", "users", "tier", "local").gauge().value()).isEqualTo(1);
        assertThat(registry.get("cache.near.staleness.bound").tags("cache", "users").timeGauge().value(TimeUnit.MILLISECONDS))
                .isEqualTo(1000);
        assertThat(registry.find("cache.size").tags("tier", "remote").meters()).as("the server's size is not ours to report").isEmpty();
    }

    @Test
    void countsEvictionsAndTheInvalidationLag() {
        for (int i = 0; i < 10; i++) {
            String key = "users:" + i;
            near.set(key, "v".getBytes(StandardCharsets.UTF_8), Duration.ZERO);
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                near.get(key);
                return near.stats().localPuts() > 0;
            });
        }
        assertThat(registry.get("cache.size").tags("cache", "users", "tier", "local").gauge().value()).isLessThanOrEqualTo(2);
        assertThat(counter("cache.evictions", "tier", "local")).isPositive();
        await().atMost(Duration.ofSeconds(5)).until(() -> registry.get("cache.near.invalidation.lag").tags("cache", "users")
                .functionTimer().count() > 0);
        assertThat(registry.get("cache.near.invalidation.lag.max").tags("cache", "users").timeGauge().value(TimeUnit.MILLISECONDS))
                .isPositive().isLessThan(1000);
    }
}
