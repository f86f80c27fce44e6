package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.near.NearCacheStalenessIntegrationTests.Strategy;
import io.adaptivecache.strategy.StrategySpec;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The keyspace under the near cache changes without any invalidation: {@code SWAPDB} (which
 * Redis never reports to tracking clients), a template on another server than its invalidation
 * source, and a failover behind a moved address that takes the template's connections to another
 * server while the invalidation connection stays. In each, the near cache must read the server
 * its template reaches, within the staleness bound (and the check's own round trips), and must
 * not serve locally while the two sides read different keyspaces. The servers' own GET counts
 * tell what reached them.
 */
class NearCacheKeyspaceIntegrationTests extends OneRedisNearCacheTests {

    @Override
    void afterInstancesClosed() {
        redis.server().command("FLUSHALL");
    }

    /**
     * SWAPDB 0 1 swaps what database 0 holds under every connection, and no tracking client is
     * told: the near cache must read database 0's new value within the staleness bound (plus
     * scheduling), where it used to serve the old one until its time to live.
     */
    @Test
    void aSwapdbIsSeenWithinTheStalenessBound() throws Exception {
        String key = NearInstances.PREFIX + "swapped";
        RedisClient client = RedisClient.create(redis.uri() + "/1");
        try (StatefulRedisConnection<String, String> database1 = client.connect()) {
            // Written before B reads: BCAST reports a key's writes in every database, so this must not come after B cached.
            database1.sync().set(key, "database 1");
            redis.server().command("SET", key, "database 0");
            NearInstances.Instance b = instances.start("b", template -> template.strategy(StrategySpec.single()));
            assertServedLocally(b, key, "database 0", "served locally before the swap");

            redis.server().command("SWAPDB", "0", "1");
            long swappedAt = System.nanoTime();
            Duration allowed = b.near().stalenessBound().plusMillis(700);
            await("B reading database 0's new value").atMost(allowed).pollInterval(Duration.ofMillis(5))
                    .until(() -> "database 1".equals(text(b.near().get(key))));
            long seenAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - swappedAt);
            System.out.printf("SWAPDB seen after %d ms (staleness bound %d ms)%n", seenAfterMillis,
                    b.near().stalenessBound().toMillis());

            // And B serves locally again, the new value: the new session marked the swapped keyspace.
            await().atMost(Duration.ofSeconds(5)).until(() -> b.near().isServingLocally());
            cached(b, key, "database 1");
        }
        finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /**
     * The source's own check, without a template to read through: its heartbeat finds its marker
     * gone after a SWAPDB and loses the session (flushing the listener) within the staleness
     * bound, then serves again on a new session.
     */
    @Test
    void aSwapdbLosesTheSessionOfASubscriptionWithoutTemplate() {
        InvalidationSource source = instances.start("b", template -> template.strategy(StrategySpec.single())).invalidations();
        java.util.concurrent.atomic.AtomicInteger flushes = new java.util.concurrent.atomic.AtomicInteger();
        InvalidationSubscription subscription = source.subscribe(java.util.List.of("plain:"), new InvalidationListener() {
            @Override
            public void invalidate(String key) {
            }

            @Override
            public void invalidateAll() {
                flushes.incrementAndGet();
            }
        });
        try {
            await().atMost(Duration.ofSeconds(5)).until(subscription::isServing);
            int before = flushes.get();
            redis.server().command("SWAPDB", "0", "1");
            await("the listener flushed").atMost(source.stalenessBound().plusMillis(700)).pollInterval(Duration.ofMillis(5))
                    .until(() -> flushes.get() > before);
            await().atMost(Duration.ofSeconds(5)).until(subscription::isServing);
        }
        finally {
            subscription.close();
        }
    }

    /**
     * The template reads server A, its invalidation source listens to server B (a template bean
     * of its own next to a source built from the properties): A's writes are never reported, so
     * the near cache must never serve locally, every read reaching A, and see A's writes at once.
     */
    @Test
    void aTemplateOnAnotherServerThanItsInvalidationsNeverServesLocally() {
        RedisServer other = new RedisServer();
        other.start();
        try {
            String key = NearInstances.PREFIX + "elsewhere";
            redis.server().command("SET", key, "1");
            NearInstances.Instance b = instances.start("b", template -> template.strategy(StrategySpec.single()),
                    source -> NearInstances.fastHeartbeat(source.uri("redis://" + other.address())),
                    NearCacheSettings.builder().keyPrefixes(NearInstances.PREFIX).build());
            long mgets = serverMgets(other);
            long gets = NearInstances.serverGets(redis.server());
            for (int i = 0; i < 20; i++) {
                assertThat(text(b.near().get(key))).isEqualTo("1");
            }
            assertThat(NearInstances.serverGets(redis.server()) - gets).as("every read reached A").isEqualTo(20);
            // A few heartbeats (the source's MGETs of its marker on B), each followed by a check through the template.
            await().atMost(Duration.ofSeconds(5)).until(() -> serverMgets(other) >= mgets + 3);
            for (int i = 0; i < 20; i++) {
                assertThat(text(b.near().get(key))).isEqualTo("1");
            }
            assertThat(NearInstances.serverGets(redis.server()) - gets).as("every read reached A, later too").isEqualTo(40);
            assertThat(b.near().isServingLocally()).isFalse();
            assertThat(b.near().stats().localHits()).isZero();

            redis.server().command("SET", key, "2");
            assertThat(text(b.near().get(key))).as("A's write, seen at once").isEqualTo("2");
        }
        finally {
            instances.close();
            other.stop();
        }
    }

    /**
     * A failover behind a moved address: B's template reaches server A through an address that
     * is moved to server C (its connections dropped and made again there), while B's invalidation
     * connection stays on A, healthy. C holds another value: B must read it within the staleness
     * bound plus the template's reconnection, where it used to serve A's value locally for good.
     */
    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = { "SINGLE", "POOLED_JEDIS" })
    void aFailoverThatMovesOnlyTheTemplatesConnectionsStopsLocalServing(Strategy strategy) throws Exception {
        RedisServer c = new RedisServer();
        c.start();
        try (RetargetingProxy address = new RetargetingProxy(redis.server().port())) {
            String key = NearInstances.PREFIX + "failover";
            redis.server().command("SET", key, "on A");
            c.command("SET", key, "on C");
            NearInstances.Instance b = instances.start("b", template -> strategy.template.accept(template
                    .uri("redis://" + ServerProcess.HOST + ":" + address.port())), NearInstances::fastHeartbeat,
                    NearCacheSettings.builder().keyPrefixes(NearInstances.PREFIX).build());
            assertServedLocally(b, key, "on A", "served locally before the move");

            address.retarget(c.port());
            long movedAt = System.nanoTime();
            // Reads may fail while the template reconnects (it fails fast): the move is seen when one returns C's value.
            await("B reading C's value").atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(5)).ignoreExceptions()
                    .until(() -> "on C".equals(text(b.near().get(key))));
            System.out.printf("The moved template's server seen after %d ms (staleness bound %d ms)%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - movedAt), b.near().stalenessBound().toMillis());
            // Not serving while the sides differ: C's writes are seen at once, every read reaching C.
            long cGets = NearInstances.serverGets(c);
            c.command("SET", key, "on C, later");
            for (int i = 0; i < 20; i++) {
                assertThat(text(b.near().get(key))).isEqualTo("on C, later");
            }
            assertThat(NearInstances.serverGets(c) - cGets).as("every read reached C").isEqualTo(20);
            assertThat(b.near().isServingLocally()).isFalse();
        }
        finally {
            instances.close();
            c.stop();
        }
    }

    /**
     * The marker is where the documentation says (outside the near caches' prefixes), expires if
     * its source dies, and goes when its source closes: sources do not leave keys behind.
     */
    @Test
    void theMarkerHasItsOwnPrefixATimeToLiveAndGoesWithItsSource() {
        NearInstances.Instance b = instances.start("b", template -> template.strategy(StrategySpec.single()));
        String key = redis.server().command("KEYS", "adaptive-cache:near-marker:*");
        assertThat(key).startsWith("adaptive-cache:near-marker:b:").doesNotContain("\n");
        assertThat(Long.parseLong(redis.server().command("PTTL", key))).isBetween(1L, TimeUnit.MINUTES.toMillis(10));
        b.invalidations().close();
        assertThat(redis.server().command("EXISTS", key)).isEqualTo("0");
    }

    /**
     * A reported flush takes the marker with it: the source starts a new session with a new
     * marker (rather than serve on with none, which would make every later check fail), and the
     * near cache serves again.
     */
    @Test
    void aReportedFlushStartsANewSessionWithANewMarker() {
        NearInstances.Instance b = instances.start("b", template -> template.strategy(StrategySpec.single()));
        String key = redis.server().command("KEYS", "adaptive-cache:near-marker:*");
        String token = redis.server().command("GET", key);
        redis.server().command("FLUSHALL");
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            String now = redis.server().command("GET", key);
            return now != null && !now.equals(token);
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> b.near().isServingLocally());
        String cachedKey = NearInstances.PREFIX + "after-flush";
        redis.server().command("SET", cachedKey, "1");
        cached(b, cachedKey, "1");
    }

    /** The MGETs a server has executed ({@code INFO commandstats}), 0 before the first. */
    private static long serverMgets(RedisServer server) {
        String stat;
        try {
            stat = server.info("commandstats", "cmdstat_mget");
        }
        catch (IllegalStateException ex) {
            return 0;
        }
        int from = stat.indexOf("calls=") + "calls=".length();
        return Long.parseLong(stat.substring(from, stat.indexOf(',', from)));
    }

    /** Reads the key through the instance until a read is a local hit of the expected value. */
    /**
     * Once {@code instance} serves locally and has {@code expected} cached under {@code key}, twenty
     * reads of it answer {@code expected} without a GET reaching the server.
     */
    private static void assertServedLocally(NearInstances.Instance instance, String key, String expected, String description) {
        await().atMost(Duration.ofSeconds(5)).until(() -> instance.near().isServingLocally());
        cached(instance, key, expected);
        long gets = NearInstances.serverGets(redis.server());
        for (int i = 0; i < 20; i++) {
            assertThat(text(instance.near().get(key))).isEqualTo(expected);
        }
        assertThat(NearInstances.serverGets(redis.server())).as(description).isEqualTo(gets);
    }

    private static void cached(NearInstances.Instance instance, String key, String expected) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(() -> {
            long hits = instance.near().stats().localHits();
            return expected.equals(text(instance.near().get(key))) && instance.near().stats().localHits() > hits;
        });
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
