package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A near cache over memcached, which has no invalidations: the staleness TTL is the bound. A
 * writes, B reads: no read of B is stale by the TTL or more, and writes through B drop B's own
 * copy at once.
 */
class MemcachedNearCacheIntegrationTests {

    private static final Duration MAX_STALENESS = Duration.ofMillis(500);

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private ManagedCacheTemplate a;
    private ManagedCacheTemplate b;
    private NearCacheTemplate nearA;
    private NearCacheTemplate nearB;

    @BeforeEach
    void start() {
        a = MemcachedCacheTemplates.builder().servers(memcached.addresses()).name("a").strategy(StrategySpec.single()).start();
        b = MemcachedCacheTemplates.builder().servers(memcached.addresses()).name("b").strategy(StrategySpec.multi()).start();
        NearCacheSettings settings = NearCacheSettings.builder().keyPrefixes("near:").build();
        nearA = NearCacheTemplates.stalenessBounded(a, MAX_STALENESS, settings);
        nearB = NearCacheTemplates.stalenessBounded(b, MAX_STALENESS, settings);
    }

    @AfterEach
    void stop() {
        nearA.close();
        nearB.close();
        a.close();
        b.close();
    }

    @Test
    void theStalenessTtlIsTheBoundAndItHolds() throws Exception {
        assertThat(nearB.stalenessBound()).isEqualTo(MAX_STALENESS);
        assertThat(nearB.isServingLocally()).isTrue();
        StalenessLoad load = new StalenessLoad(nearA, nearB, "near:load:", 32, MAX_STALENESS);
        StalenessLoad.Result result = load.run(2, 3, Duration.ofMillis(1), () -> Thread.sleep(2500));
        NearCacheStalenessIntegrationTests.report("memcached, staleness TTL " + MAX_STALENESS.toMillis() + " ms", result, nearB);
        assertThat(result.violations()).as("%s", result.examples()).isZero();
        assertThat(result.maxNanos()).isLessThan(MAX_STALENESS.toNanos());
        assertThat(nearB.stats().localHits()).isGreaterThan(result.reads() / 2);
    }

    @Test
    void aWriteThroughTheNearCacheDropsItsOwnCopyAtOnce() {
        String key = "near:own";
        nearB.set(key, bytes("1"), Duration.ZERO);
        assertThat(text(nearB.get(key))).isEqualTo("1");
        assertThat(text(nearB.get(key))).isEqualTo("1");
        assertThat(nearB.stats().localHits()).isEqualTo(1);
        nearB.set(key, bytes("2"), Duration.ZERO);
        assertThat(text(nearB.get(key))).isEqualTo("2");
        assertThat(nearB.delete(key)).isTrue();
        assertThat(nearB.get(key)).isNull();
    }

    @Test
    void aSetIsCountedOnceAsAWriteAndOnceAsAnInvalidation() throws Exception {
        NearCacheStats before = nearB.stats();
        nearB.set("near:counted", bytes("1"), Duration.ZERO);
        nearB.setAsync("near:counted", bytes("2"), Duration.ZERO).get(5, java.util.concurrent.TimeUnit.SECONDS);
        NearCacheStats after = nearB.stats();
        assertThat(after.remoteWrites() - before.remoteWrites()).as("writes sent").isEqualTo(2);
        assertThat(after.writeInvalidations() - before.writeInvalidations()).as("copies dropped by writes").isEqualTo(2);
    }

    @Test
    void anotherInstancesWriteIsSeenOnceTheCopyExpires() {
        String key = "near:other";
        nearA.set(key, bytes("1"), Duration.ZERO);
        assertThat(text(nearB.get(key))).isEqualTo("1");
        nearA.set(key, bytes("2"), Duration.ZERO);
        long written = System.nanoTime();
        await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(5)).until(() -> "2".equals(text(nearB.get(key))));
        assertThat(Duration.ofNanos(System.nanoTime() - written)).isLessThan(MAX_STALENESS.plusMillis(100));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
