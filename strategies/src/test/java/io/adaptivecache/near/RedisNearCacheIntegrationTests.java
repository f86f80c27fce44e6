package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A near cache over Redis on one server, with two application instances A and B. */
class RedisNearCacheIntegrationTests {

    private static final Duration NO_TTL = Duration.ZERO;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private NearInstances instances;
    private NearInstances.Instance a;
    private NearInstances.Instance b;

    @BeforeEach
    void startInstances() {
        instances = new NearInstances(redis.uri());
        a = instances.start("a", template -> template.strategy(StrategySpec.single()));
        b = instances.start("b", template -> template.strategy(StrategySpec.single()));
        await().atMost(Duration.ofSeconds(5)).until(() -> a.near().isServingLocally() && b.near().isServingLocally());
    }

    @AfterEach
    void closeInstances() {
        instances.close();
    }

    /** Waits (5 s at most) until {@code instance} has taken more than {@code count} invalidation reports from the server. */
    private static void awaitInvalidationsAbove(NearInstances.Instance instance, long count) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                .until(() -> instance.near().stats().serverInvalidations() > count);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void aWriteThroughAIsNeverReadStaleThroughBOnceBHasItsInvalidation() {
        String key = NearInstances.PREFIX + "never-stale";
        a.near().set(key, bytes("v0"), NO_TTL);
        long maxArrivalNanos = 0;
        for (int i = 1; i <= 200; i++) {
            // B holds the previous value locally.
            cached(b, key, "v" + (i - 1));
            long invalidations = b.near().stats().serverInvalidations();
            a.near().set(key, bytes("v" + i), NO_TTL);
            long written = System.nanoTime();
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofNanos(100_000))
                    .until(() -> b.near().stats().serverInvalidations() > invalidations);
            maxArrivalNanos = Math.max(maxArrivalNanos, System.nanoTime() - written);
            assertThat(text(b.near().get(key))).as("B's read after it received the invalidation of write %d", i).isEqualTo("v" + i);
        }
        System.out.printf("B received each of 200 invalidations at most %.2f ms after A's write returned%n",
                maxArrivalNanos / 1e6);
    }

    @Test
    void everyWriteThroughTheNearCacheDropsItsOwnCopyAtOnce() throws Exception {
        String key = NearInstances.PREFIX + "own-writes";
        a.near().set(key, bytes("1"), NO_TTL);
        cached(a, key, "1");
        a.near().set(key, bytes("2"), NO_TTL);
        cached(a, key, "2");
        a.near().setAsync(key, bytes("3"), NO_TTL).get(5, TimeUnit.SECONDS);
        cached(a, key, "3");
        assertThat(a.near().replace(key, bytes("4"), NO_TTL)).isTrue();
        cached(a, key, "4");
        assertThat(a.near().replaceAsync(key, bytes("5"), NO_TTL).get(5, TimeUnit.SECONDS)).isTrue();
        cached(a, key, "5");
        assertThat(a.near().incr(key, 1)).isEqualTo(6);
        cached(a, key, "6");
        assertThat(a.near().incrAsync(key, 1).get(5, TimeUnit.SECONDS)).isEqualTo(7);
        cached(a, key, "7");
        assertThat(a.near().decr(key, 2)).isEqualTo(5);
        cached(a, key, "5");
        assertThat(a.near().decrAsync(key, 1).get(5, TimeUnit.SECONDS)).isEqualTo(4);
        cached(a, key, "4");
        var token = a.near().gets(key);
        assertThat(a.near().cas(key, token.token(), bytes("cas"), NO_TTL)).isEqualTo(io.adaptivecache.CasResult.STORED);
        cached(a, key, "cas");
        token = a.near().gets(key);
        assertThat(a.near().casAsync(key, token.token(), bytes("cas2"), NO_TTL).get(5, TimeUnit.SECONDS))
                .isEqualTo(io.adaptivecache.CasResult.STORED);
        cached(a, key, "cas2");
        assertThat(a.near().delete(key)).isTrue();
        assertThat(a.near().get(key)).isNull();
        assertThat(a.near().add(key, bytes("added"), NO_TTL)).isTrue();
        cached(a, key, "added");
        assertThat(a.near().deleteAsync(key).get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(a.near().getAsync(key).get(5, TimeUnit.SECONDS)).isNull();
        assertThat(a.near().addAsync(key, bytes("added2"), NO_TTL).get(5, TimeUnit.SECONDS)).isTrue();
        cached(a, key, "added2");
        assertThat(a.near().touch(key, Duration.ofMillis(300))).isTrue();
        await().atMost(Duration.ofSeconds(3)).until(() -> a.near().get(key) == null);
    }

    @Test
    void ownSetsShouldBeDroppedByTheirEchoAndReadFromTheServerWhileAnotherInstancesLaterWritesStillReachThem() {
        int keys = 20;
        long gets = getCalls();
        for (int i = 0; i < keys; i++) {
            String key = NearInstances.PREFIX + "write-through:" + i;
            long echoes = a.near().stats().serverInvalidations();
            a.near().set(key, bytes("mine"), NO_TTL);
            // Its echo (the server's report of this very write) may also stand for another client's write of the key in
            // the same cycle of the server's event loop: it drops the copy like any report.
            awaitInvalidationsAbove(a, echoes);
            for (int read = 0; read < 5; read++) {
                assertThat(text(a.near().get(key))).isEqualTo("mine");
            }
        }
        // The server's count: once its echo came, each key's first read went to the server (a copy kept past the echo
        // would have answered it locally); the reads after it were answered locally once the read was kept.
        assertThat(getCalls() - gets).as("GETs the server executed for A's reads of its own %d writes", keys)
                .isBetween((long) keys, 5L * keys - 1);

        for (int i = 0; i < keys; i++) {
            String key = NearInstances.PREFIX + "write-through:" + i;
            long reports = a.near().stats().serverInvalidations();
            b.near().set(key, bytes("theirs"), NO_TTL);
            awaitInvalidationsAbove(a, reports);
            assertThat(text(a.near().get(key))).as("A's read once B's write of %s was reported to it", key).isEqualTo("theirs");
        }
    }

    @Test
    void aSetOnADegradeTemplateIsCountedOnceAsAWriteAndOnceAsAnInvalidation() throws Exception {
        NearInstances.Instance degrade = instances.start("degrade", template -> template.strategy(StrategySpec.single())
                .onFailure(io.adaptivecache.CacheFailureMode.DEGRADE));
        await().atMost(Duration.ofSeconds(5)).until(() -> degrade.near().isServingLocally());
        NearCacheStats before = degrade.near().stats();
        degrade.near().set(NearInstances.PREFIX + "counted", bytes("1"), NO_TTL);
        degrade.near().setAsync(NearInstances.PREFIX + "counted", bytes("2"), NO_TTL).get(5, TimeUnit.SECONDS);
        NearCacheStats after = degrade.near().stats();
        assertThat(after.remoteWrites() - before.remoteWrites()).as("writes sent").isEqualTo(2);
        assertThat(after.writeInvalidations() - before.writeInvalidations()).as("copies dropped by writes").isEqualTo(2);
    }

    private static long getCalls() {
        return NearInstances.serverGets(redis.server());
    }

    /**
     * Reads the key through the instance until a read is a local hit, every read giving the
     * expected value. More than one read may be needed: the server's invalidation of the
     * instance's own write may arrive after the write's reply, and drop the copy kept meanwhile.
     */
    private static void cached(NearInstances.Instance instance, String key, String expected) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(() -> {
            long hits = instance.near().stats().localHits();
            assertThat(text(instance.near().get(key))).isEqualTo(expected);
            return instance.near().stats().localHits() > hits;
        });
    }

    @Test
    void getAllAnswersWhatIsLocalAndFetchesTheRestInOrder() throws Exception {
        String one = NearInstances.PREFIX + "all-1";
        String two = NearInstances.PREFIX + "all-2";
        String absent = NearInstances.PREFIX + "all-absent";
        String outside = "outside:all-3";
        a.remote().set(one, bytes("1"), NO_TTL);
        a.remote().set(two, bytes("2"), NO_TTL);
        a.remote().set(outside, bytes("3"), NO_TTL);
        // Until a local hit: the report of a's write may reach b after b's first read, which then keeps no copy.
        cached(b, one, "1");
        long hits = b.near().stats().localHits();
        Map<String, byte[]> all = b.near().getAll(List.of(outside, absent, two, one));
        assertThat(all.keySet()).containsExactly(outside, two, one);
        assertThat(text(all.get(one))).isEqualTo("1");
        assertThat(b.near().stats().localHits()).isEqualTo(hits + 1);
        Map<String, byte[]> again = b.near().getAllAsync(List.of(one, two)).get(5, TimeUnit.SECONDS);
        assertThat(again.keySet()).containsExactly(one, two);
        assertThat(b.near().stats().localHits()).isEqualTo(hits + 3);
        a.near().set(two, bytes("2b"), NO_TTL);
        await().atMost(Duration.ofSeconds(5)).until(() -> "2b".equals(text(b.near().getAll(List.of(one, two)).get(two))));
    }

    @Test
    void keysOutsideThePrefixesAreNeverKept() {
        String key = "outside:key";
        a.near().set(key, bytes("1"), NO_TTL);
        b.near().get(key);
        b.near().get(key);
        assertThat(b.near().stats().localHits()).isZero();
        assertThat(b.near().stats().localPuts()).isZero();
    }

    @Test
    void aFlushOnTheServerEmptiesEveryLocalTier() {
        String key = NearInstances.PREFIX + "flushed";
        a.near().set(key, bytes("1"), NO_TTL);
        cached(b, key, "1");
        long flushes = b.near().stats().flushes();
        redis.server().command("FLUSHALL");
        await().atMost(Duration.ofSeconds(5)).until(() -> b.near().stats().flushes() > flushes);
        assertThat(b.near().get(key)).isNull();
    }

    @Test
    void aReturnedValueIsTheCallersToChange() {
        String key = NearInstances.PREFIX + "mutable";
        a.near().set(key, bytes("abc"), NO_TTL);
        byte[] first = b.near().get(key);
        first[0] = 'x';
        byte[] second = b.near().get(key);
        second[1] = 'y';
        assertThat(text(b.near().get(key))).isEqualTo("abc");
    }

    @Test
    void aClusterTemplateIsRefusedWithTheReason() {
        try (var cluster = io.adaptivecache.redis.RedisClusterCacheTemplates.builder().nodes("127.0.0.1:1").name("cluster").build()) {
            assertThatThrownBy(() -> NearCacheTemplates.redis(cluster, b.invalidations(), NearCacheSettings.DEFAULTS))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Redis Cluster")
                    .hasMessageContaining("tracking connection to every master")
                    .hasMessageContaining("stalenessBounded");
        }
    }

    @Test
    void aMemcachedTemplateIsRefusedWithTheReason() {
        try (var memcached = io.adaptivecache.memcached.MemcachedCacheTemplates.builder().servers("127.0.0.1:1").build()) {
            assertThatThrownBy(() -> NearCacheTemplates.redis(memcached, b.invalidations(), NearCacheSettings.DEFAULTS))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sends no invalidations")
                    .hasMessageContaining("stalenessBounded");
        }
    }

    /**
     * Why the invalidation source reconnects by itself: Lettuce's own reconnect restores a RESP3
     * connection, but not its CLIENT TRACKING, so such a connection would look healthy and carry
     * no invalidations.
     */
    @Test
    void lettucesOwnReconnectDoesNotTurnTrackingBackOn() {
        io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(redis.uri());
        client.setOptions(io.lettuce.core.ClientOptions.builder().protocolVersion(io.lettuce.core.protocol.ProtocolVersion.RESP3)
                .autoReconnect(true).build());
        try (var connection = client.connect()) {
            connection.sync().clientTracking(io.lettuce.core.TrackingArgs.Builder.enabled().bcast().prefixes("lettuce:"));
            assertThat(connection.sync().clientTrackinginfo().getFlags()).contains(io.lettuce.core.TrackingInfo.TrackingFlag.BCAST);
            Long before = connection.sync().clientId();
            redis.server().command("CLIENT", "KILL", "ID", Long.toString(before));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                    .until(() -> !before.equals(connection.sync().clientId()));
            assertThat(connection.sync().clientTrackinginfo().getFlags()).contains(io.lettuce.core.TrackingInfo.TrackingFlag.OFF)
                    .doesNotContain(io.lettuce.core.TrackingInfo.TrackingFlag.BCAST);
        }
        finally {
            client.shutdown();
        }
    }

    @Test
    void aTypedViewGoesThroughTheLocalTier() {
        String key = NearInstances.PREFIX + "typed";
        var strings = b.near().withCodec(io.adaptivecache.ValueCodec.utf8());
        strings.set(key, "text", NO_TTL);
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            long hits = b.near().stats().localHits();
            return "text".equals(strings.get(key)) && b.near().stats().localHits() > hits;
        });
    }

    @Test
    void nearCachesSharingASourceAreToldOfTheirOwnPrefixesOnly() {
        NearCacheTemplate orders = NearCacheTemplates.redis(b.remote(), b.invalidations(),
                NearCacheSettings.builder().keyPrefixes("orders:").build());
        try {
            assertThat(orders.isServingLocally()).as("a live source tracks a new prefix before it returns").isTrue();
            a.remote().set("orders:1", bytes("1"), NO_TTL);
            cached(orders, "orders:1", "1");
            long usersInvalidations = b.near().stats().serverInvalidations();
            a.remote().set("orders:1", bytes("2"), NO_TTL);
            await().atMost(Duration.ofSeconds(5)).until(() -> "2".equals(text(orders.get("orders:1"))));
            assertThat(orders.stats().serverInvalidations()).isPositive();
            assertThat(b.near().stats().serverInvalidations()).as("the other near cache's prefix").isEqualTo(usersInvalidations);
        }
        finally {
            orders.close();
        }
    }

    @Test
    void aWiderPrefixStartsANewSessionAndBothNearCachesServeAfterIt() {
        String key = NearInstances.PREFIX + "narrow:1";
        NearCacheTemplate narrow = NearCacheTemplates.redis(b.remote(), b.invalidations(),
                NearCacheSettings.builder().keyPrefixes(NearInstances.PREFIX + "narrow:").build());
        NearCacheTemplate wide = null;
        try {
            a.remote().set(key, bytes("1"), NO_TTL);
            cached(narrow, key, "1");
            long flushes = narrow.stats().flushes();
            // "n" is wider than the tracked "near:": Redis refuses overlapping prefixes, so the source tracks anew.
            wide = NearCacheTemplates.redis(b.remote(), b.invalidations(), NearCacheSettings.builder().keyPrefixes("n").build());
            NearCacheTemplate wider = wide;
            await().atMost(Duration.ofSeconds(5)).until(() -> narrow.isServingLocally() && wider.isServingLocally());
            assertThat(narrow.stats().flushes()).as("the new session flushed").isGreaterThan(flushes);
            a.remote().set(key, bytes("2"), NO_TTL);
            await().atMost(Duration.ofSeconds(5)).until(() -> "2".equals(text(narrow.get(key))));
            cached(narrow, key, "2");
            cached(wider, key, "2");
            a.remote().set(key, bytes("3"), NO_TTL);
            await().atMost(Duration.ofSeconds(5)).until(() -> "3".equals(text(wider.get(key))) && "3".equals(text(narrow.get(key))));
        }
        finally {
            narrow.close();
            if (wide != null) {
                wide.close();
            }
        }
    }

    @Test
    void withoutPrefixesEveryKeyIsCachedAndInvalidated() {
        NearInstances.Instance everything = instances.start("every", template -> template.strategy(StrategySpec.multi()),
                NearInstances::fastHeartbeat, NearCacheSettings.builder().build());
        await().atMost(Duration.ofSeconds(5)).until(() -> everything.near().isServingLocally());
        String key = "anything-" + System.nanoTime();
        a.remote().set(key, bytes("1"), NO_TTL);
        cached(everything, key, "1");
        a.remote().set(key, bytes("2"), NO_TTL);
        await().atMost(Duration.ofSeconds(5)).until(() -> "2".equals(text(everything.near().get(key))));
    }

    private static void cached(NearCacheTemplate near, String key, String expected) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(() -> {
            long hits = near.stats().localHits();
            return expected.equals(text(near.get(key))) && near.stats().localHits() > hits;
        });
    }
}
