package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.devservers.DelayingProxy;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.near.NearCacheStalenessIntegrationTests.Strategy;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lost invalidations under load: the server killed and restarted, frozen (SIGSTOP) and thawed,
 * B's invalidation connection killed while writes go on, and B's invalidation path silently
 * stalled while writes go on. A writes, B reads, throughout.
 *
 * <p>Checked in every test: no read of B is stale by the staleness bound or more (the guarantee);
 * B stops serving locally when it cannot know, and serves again once tracking is back. After the
 * server lost its data (kill), no read that begins after B reports serving again returns a value
 * the server no longer has.
 */
class NearCacheFaultIntegrationTests extends OneRedisNearCacheTests {

    private static final Duration TEMPLATE_TIMEOUT = Duration.ofMillis(500);

    @Override
    void afterInstancesClosed() {
        // A failed test must not leave the next one a frozen or dead server.
        redis.server().thaw();
        try {
            redis.server().command("PING");
        }
        catch (RuntimeException ex) {
            redis.server().restart();
        }
    }

    private NearInstances.Instance writer() {
        // One connection: a write that timed out while the server was frozen is applied before the next one.
        return instances.start("a", template -> template.strategy(StrategySpec.single()).commandTimeout(TEMPLATE_TIMEOUT));
    }

    /** A writing and B reading on 32 keys named from {@code name}, stale reads judged by B's staleness bound. */
    private static StalenessLoad aWritesBReads(NearInstances.Instance a, NearInstances.Instance b, String name) {
        return new StalenessLoad(a.near(), b.near(), NearInstances.PREFIX + name, 32, b.near().stalenessBound());
    }

    /** The writer A, the reader B on {@code strategy}, and their load on keys named from the fault and the strategy. */
    private record UnderLoad(NearInstances.Instance a, NearInstances.Instance b, StalenessLoad load) {
    }

    private UnderLoad underLoad(String fault, Strategy strategy) {
        NearInstances.Instance a = writer();
        NearInstances.Instance b = instances.start("b", template -> strategy.template.accept(template.commandTimeout(TEMPLATE_TIMEOUT)));
        return new UnderLoad(a, b, aWritesBReads(a, b, fault + ":" + strategy + ":"));
    }

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = { "MULTI", "POOLED_JEDIS" })
    void theServerKilledAndRestartedUnderLoad(Strategy strategy) throws Exception {
        UnderLoad run = underLoad("kill", strategy);
        NearInstances.Instance b = run.b();
        StalenessLoad load = run.load();
        long[] hitsAtRecovery = new long[1];
        long[] flushes = new long[2];
        StalenessLoad.Result result = load.run(2, 3, Duration.ofMillis(1), () -> {
            Thread.sleep(800);
            flushes[0] = b.near().stats().flushes();
            redis.server().kill();
            await().atMost(b.near().stalenessBound().plusMillis(200)).pollInterval(Duration.ofMillis(5))
                    .until(() -> !b.near().isServingLocally());
            Thread.sleep(1000);
            // Not at the kill: a reply the server sent just before it died may still complete a write after it.
            load.wiped();
            redis.server().restart();
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5)).until(() -> b.near().isServingLocally());
            load.strictFrom(System.nanoTime());
            hitsAtRecovery[0] = b.near().stats().localHits();
            flushes[1] = b.near().stats().flushes();
            awaitLocalHitsAfterRecovery(b, hitsAtRecovery[0]);
        });
        NearCacheStalenessIntegrationTests.report("server killed and restarted, B " + strategy, result, b.near());
        assertThat(result.violations()).as("%s", result.examples()).isZero();
        assertThat(flushes[1]).as("flushed on the loss and again on recovery").isGreaterThanOrEqualTo(flushes[0] + 2);
        assertThat(b.near().stats().localHits()).as("B serves locally after recovery").isGreaterThan(hitsAtRecovery[0] + 1000);
    }

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = { "MULTI", "POOLED_JEDIS" })
    void theServerFrozenAndThawedUnderLoad(Strategy strategy) throws Exception {
        UnderLoad run = underLoad("freeze", strategy);
        NearInstances.Instance a = run.a();
        NearInstances.Instance b = run.b();
        long[] hitsAtRecovery = new long[1];
        long[] noticedAfter = new long[1];
        long[] flushes = new long[2];
        String cold = NearInstances.PREFIX + "freeze-cold:" + strategy;
        String[] coldAfterRecovery = new String[1];
        StalenessLoad.Result result = run.load().run(2, 3, Duration.ofMillis(1), () -> {
            a.near().set(cold, bytes("before"), Duration.ZERO);
            cached(b, cold, "before");
            Thread.sleep(800);
            flushes[0] = b.near().stats().flushes();
            redis.server().freeze();
            // After kill -STOP returned: starting that process may take a while on a loaded machine.
            long frozenAt = System.nanoTime();
            try {
                await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(1)).until(() -> !b.near().isServingLocally());
                noticedAfter[0] = System.nanoTime() - frozenAt;
                // Times out on A, and reaches the server when it thaws, before B can track again: its invalidation is lost.
                a.remote().setAsync(cold, bytes("during"), Duration.ZERO);
                Thread.sleep(1500);
            }
            finally {
                redis.server().thaw();
            }
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5)).until(() -> b.near().isServingLocally());
            hitsAtRecovery[0] = b.near().stats().localHits();
            flushes[1] = b.near().stats().flushes();
            await().atMost(Duration.ofSeconds(5)).until(() -> "during".equals(text(a.remote().get(cold))));
            coldAfterRecovery[0] = text(b.near().get(cold));
            awaitLocalHitsAfterRecovery(b, hitsAtRecovery[0]);
        });
        NearCacheStalenessIntegrationTests.report("server frozen and thawed, B " + strategy + ", stopped serving "
                + TimeUnit.NANOSECONDS.toMillis(noticedAfter[0]) + " ms into the freeze", result, b.near());
        assertThat(coldAfterRecovery[0]).as("B's read, after recovery, of a key written while B could not be told").isEqualTo("during");
        assertThat(result.violations()).as("%s", result.examples()).isZero();
        assertThat(flushes[1]).as("flushed on the loss and again on recovery").isGreaterThanOrEqualTo(flushes[0] + 2);
        assertThat(Duration.ofNanos(noticedAfter[0])).as("B stopped serving within the staleness bound (and some scheduling)")
                .isLessThan(b.near().stalenessBound().plusMillis(200));
        assertThat(b.near().stats().localHits()).as("B serves locally after recovery").isGreaterThan(hitsAtRecovery[0] + 1000);
    }

    /**
     * B's invalidation connection runs through a proxy that delays it by 30 ms each way, so that
     * B's new connection tracks only some 100 ms after the old one was killed: A's write right
     * after the kill is certain to reach the server while B is not tracking.
     */
    @Test
    void bsInvalidationConnectionKilledWhileWritesGoOn() throws Exception {
        try (DelayingProxy proxy = new DelayingProxy(ServerProcess.HOST, redis.server().port())) {
            proxy.delayMillis(30);
            NearInstances.Instance a = writer();
            NearInstances.Instance b = instances.start("b", template -> Strategy.MULTI.template.accept(template.commandTimeout(TEMPLATE_TIMEOUT)),
                    source -> NearInstances.fastHeartbeat(source.uri("redis://" + ServerProcess.HOST + ":" + proxy.port())),
                    NearCacheSettings.builder().keyPrefixes(NearInstances.PREFIX).build());
            await().atMost(Duration.ofSeconds(5)).until(() -> b.near().isServingLocally());
            StalenessLoad load = aWritesBReads(a, b, "client-kill:");
            long flushes = b.near().stats().flushes();
            String cold = NearInstances.PREFIX + "client-kill-cold";
            String[] coldAfterRecovery = new String[3];
            StalenessLoad.Result result = load.run(2, 3, Duration.ofMillis(1), () -> {
                for (int i = 0; i < 3; i++) {
                    a.near().set(cold, bytes("before-" + i), Duration.ZERO);
                    cached(b, cold, "before-" + i);
                    Thread.sleep(600);
                    String killed = clientId("adaptive-cache-invalidations-b");
                    redis.server().command("CLIENT", "KILL", "ID", killed);
                    a.near().set(cold, bytes("after-" + i), Duration.ZERO);
                    // Serving on a new connection: B noticed the loss (the proxy holds the close for 30 ms too) and recovered.
                    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> {
                        String id = clientId("adaptive-cache-invalidations-b");
                        return !id.isEmpty() && !id.equals(killed) && b.near().isServingLocally();
                    });
                    coldAfterRecovery[i] = text(b.near().get(cold));
                }
                awaitLocalHitsAfterRecovery(b, b.near().stats().localHits());
            });
            NearCacheStalenessIntegrationTests.report("B's invalidation connection killed 3 times", result, b.near());
            assertThat(coldAfterRecovery).as("B's reads, after recovery, of a key written while B was not tracking")
                    .containsExactly("after-0", "after-1", "after-2");
            assertThat(result.violations()).as("%s", result.examples()).isZero();
            assertThat(b.near().stats().flushes()).as("flushed on each loss and each recovery").isGreaterThanOrEqualTo(flushes + 6);
            assertThat(result.failedWrites()).isZero();
        }
    }

    /**
     * The worst case the bound is for: B's invalidation connection stays open but nothing comes
     * through it (a half-open connection, a stalled network path) while A's writes complete. B
     * serves its copies until the last answered heartbeat is the staleness bound old, then stops,
     * flushes, and serves again once a new connection tracks.
     */
    @Test
    void bsInvalidationPathSilentlyStalledWhileWritesGoOn() throws Exception {
        try (DelayingProxy proxy = new DelayingProxy(ServerProcess.HOST, redis.server().port())) {
            NearInstances.Instance a = writer();
            NearInstances.Instance b = instances.start("b", template -> Strategy.MULTI.template.accept(template.commandTimeout(TEMPLATE_TIMEOUT)),
                    source -> NearInstances.fastHeartbeat(source.uri("redis://" + ServerProcess.HOST + ":" + proxy.port())
                            .connectTimeout(Duration.ofMillis(500))),
                    NearCacheSettings.builder().keyPrefixes(NearInstances.PREFIX).build());
            await().atMost(Duration.ofSeconds(5)).until(() -> b.near().isServingLocally());
            StalenessLoad load = aWritesBReads(a, b, "stalled:");
            long[] noticedAfter = new long[1];
            long flushes = b.near().stats().flushes();
            StalenessLoad.Result result = load.run(2, 3, Duration.ofMillis(1), () -> {
                Thread.sleep(800);
                long stalledAt = System.nanoTime();
                proxy.delayMillis(60_000);
                await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(1)).until(() -> !b.near().isServingLocally());
                noticedAfter[0] = System.nanoTime() - stalledAt;
                Thread.sleep(1000);
                proxy.delayMillis(0);
                await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
                        .until(() -> b.near().isServingLocally());
                awaitLocalHitsAfterRecovery(b, b.near().stats().localHits());
            });
            NearCacheStalenessIntegrationTests.report("B's invalidation path stalled, stopped serving "
                    + TimeUnit.NANOSECONDS.toMillis(noticedAfter[0]) + " ms into the stall", result, b.near());
            assertThat(result.violations()).as("%s", result.examples()).isZero();
            assertThat(b.near().stats().flushes()).as("flushed on the loss and again on recovery").isGreaterThanOrEqualTo(flushes + 2);
            assertThat(result.failedWrites()).as("A's writes went on").isZero();
            assertThat(Duration.ofNanos(noticedAfter[0])).isLessThan(b.near().stalenessBound().plusMillis(200));
        }
    }

    /**
     * Reads the key through the instance until a read is a local hit of the expected value (the
     * invalidation of the value before it may take a moment to arrive).
     */
    private static void cached(NearInstances.Instance instance, String key, String expected) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(() -> {
            long hits = instance.near().stats().localHits();
            return expected.equals(text(instance.near().get(key))) && instance.near().stats().localHits() > hits;
        });
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The id of the connected client with this name, from CLIENT LIST, or "" if none. */
    private static String clientId(String name) {
        for (String line : redis.server().command("CLIENT", "LIST").split("\r?\n")) {
            if (line.contains(" name=" + name + " ")) {
                for (String field : line.split(" ")) {
                    if (field.startsWith("id=")) {
                        return field.substring(3);
                    }
                }
            }
        }
        return "";
    }

    /**
     * Keeps the load running after recovery until B has answered 1,000 reads locally (at most 10 s),
     * so that the strict phase covers local reads rather than a fixed time that a slow machine
     * might spend without any.
     */
    private static void awaitLocalHitsAfterRecovery(NearInstances.Instance b, long hitsAtRecovery) {
        await("B serving locally after recovery").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(() -> b.near().stats().localHits() > hitsAtRecovery + 1000);
    }
}
