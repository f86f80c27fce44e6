package io.adaptivecache.near;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Staleness under a concurrent read/write load: A writes, B reads, on one Redis server, with every
 * connection strategy and driver and with live switches. The staleness of a write is how long
 * after it completed on A a read of B still returned an older value.
 *
 * <p>Stated bounds, for a shared two-core machine: p99 below {@link #P99_BOUND}, and no read
 * stale by the staleness bound (heartbeat interval 100 ms + timeout 200 ms) or more. A local
 * tier without invalidations fails both ({@link #aTierWithoutInvalidationsFailsTheseBounds}).
 */
class NearCacheStalenessIntegrationTests extends OneRedisNearCacheTests {

    /** The p99 of per-write staleness the tests hold a near cache to. */
    static final Duration P99_BOUND = Duration.ofMillis(50);

    private static final Duration LOAD = Duration.ofMillis(2500);

    /** The strategies and drivers of both instances' templates. */
    enum Strategy {
        SINGLE(builder -> builder.strategy(StrategySpec.single())),
        MULTI(builder -> builder.strategy(StrategySpec.multi())),
        POOLED_LETTUCE(builder -> builder.strategy(StrategySpec.pooled(PoolSettings.ofSize(8)))),
        POOLED_JEDIS(builder -> builder.pooledDriver(RedisDriver.JEDIS).strategy(StrategySpec.pooled(PoolSettings.ofSize(8))));

        final Consumer<RedisCacheTemplates.Builder> template;

        Strategy(Consumer<RedisCacheTemplates.Builder> template) {
            this.template = template;
        }
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void staysWithinTheBoundsWithEveryStrategy(Strategy strategy) throws Exception {
        NearInstances.Instance a = instances.start("a", strategy.template);
        NearInstances.Instance b = instances.start("b", strategy.template);
        StalenessLoad load = new StalenessLoad(a.near(), b.near(), NearInstances.PREFIX + "load:" + strategy + ":", 32,
                b.near().stalenessBound());
        StalenessLoad.Result result = load.run(2, 3, Duration.ofMillis(1), () -> Thread.sleep(LOAD.toMillis()));
        report(strategy + " (bound " + b.near().stalenessBound().toMillis() + " ms)", result, b.near());
        assertWithinBounds(result, b.near());
    }

    @Test
    void staysWithinTheBoundsWhenTheReaderWritesTheSameKeysToo() throws Exception {
        // B keeps its own writes locally, each awaiting its echo; A's next write of the key must still drop B's copy.
        NearInstances.Instance a = instances.start("a", Strategy.MULTI.template);
        NearInstances.Instance b = instances.start("b", Strategy.MULTI.template);
        StalenessLoad load = new StalenessLoad(a.near(), b.near(), b.near(), NearInstances.PREFIX + "both-write:", 32,
                b.near().stalenessBound());
        StalenessLoad.Result result = load.run(2, 3, Duration.ofMillis(1), () -> Thread.sleep(LOAD.toMillis()));
        report("B writing every other version too (bound " + b.near().stalenessBound().toMillis() + " ms)", result, b.near());
        assertWithinBounds(result, b.near());
        assertThat(((NearCachingTemplate) b.near()).tier().ownWritesKept.sum()).as("B's own writes kept locally").isPositive();
    }

    @ParameterizedTest
    @EnumSource(value = RedisDriver.class)
    void staysWithinTheBoundsWhileBothInstancesSwitchStrategies(RedisDriver pooledDriver) throws Exception {
        Consumer<RedisCacheTemplates.Builder> template = builder -> builder.pooledDriver(pooledDriver)
                .strategy(StrategySpec.single());
        NearInstances.Instance a = instances.start("a", template);
        NearInstances.Instance b = instances.start("b", template);
        List<StrategySpec> cycle = List.of(StrategySpec.multi(), StrategySpec.pooled(PoolSettings.ofSize(8)), StrategySpec.single());
        StalenessLoad load = new StalenessLoad(a.near(), b.near(), NearInstances.PREFIX + "switch:" + pooledDriver + ":", 32,
                b.near().stalenessBound());
        int[] switches = new int[1];
        StalenessLoad.Result result = load.run(2, 3, Duration.ofMillis(1), () -> {
            long end = System.nanoTime() + LOAD.toNanos();
            for (int i = 0; System.nanoTime() < end; i++) {
                StrategySpec next = cycle.get(i % cycle.size());
                // Not at the same moment on both: each instance switches on its own.
                (i % 2 == 0 ? a : b).remote().switchStrategy(next);
                (i % 2 == 0 ? b : a).remote().switchStrategy(next);
                switches[0] += 2;
                Thread.sleep(150);
            }
        });
        report("switching, pooled driver " + pooledDriver + ", " + switches[0] + " switches", result, b.near());
        assertWithinBounds(result, b.near());
    }

    /**
     * The same load and checks against a local tier that no invalidation reaches, only a time to
     * live of 2 s: B keeps serving old values until they expire, and the bounds catch it. This is
     * what makes the bounds above mean something.
     */
    @Test
    void aTierWithoutInvalidationsFailsTheseBounds() throws Exception {
        NearInstances.Instance a = instances.start("a", Strategy.SINGLE.template);
        NearInstances.Instance b = instances.start("b", Strategy.SINGLE.template);
        NearCacheTemplate ttlOnly = NearCacheTemplates.stalenessBounded(b.remote(), Duration.ofSeconds(2),
                NearCacheSettings.builder().keyPrefixes(NearInstances.PREFIX).build());
        try {
            StalenessLoad load = new StalenessLoad(a.near(), ttlOnly, NearInstances.PREFIX + "ttl-only:", 32,
                    b.near().stalenessBound());
            StalenessLoad.Result result = load.run(2, 3, Duration.ofMillis(1), () -> Thread.sleep(LOAD.toMillis()));
            report("TTL-only tier (2 s), checked against the invalidating tier's bounds", result, ttlOnly);
            assertThat(result.violations()).as("reads stale by more than the bound").isPositive();
            assertThat(result.p99Nanos()).isGreaterThan(P99_BOUND.toNanos());
        }
        finally {
            ttlOnly.close();
        }
    }

    private static void assertWithinBounds(StalenessLoad.Result result, NearCacheTemplate b) {
        assertThat(result.writes()).as("writes").isGreaterThan(500);
        assertThat(b.stats().localHits()).as("B's local hits: the local tier served").isGreaterThan(result.reads() / 4);
        assertThat(result.violations()).as("reads stale by the bound or more: %s", result.examples()).isZero();
        assertThat(result.p99Nanos()).as("p99 staleness per write").isLessThan(P99_BOUND.toNanos());
        assertThat(result.maxNanos()).as("max staleness per write").isLessThan(b.stalenessBound().toNanos());
    }

    static void report(String what, StalenessLoad.Result result, NearCacheTemplate b) {
        NearCacheStats stats = b.stats();
        System.out.printf("near-cache staleness, %s: %s; B local hits %d, misses %d, bypassed %d, discarded loads %d,"
                + " invalidations %d, flushes %d%n", what, result.summary(), stats.localHits(), stats.localMisses(),
                stats.bypassedReads(), stats.discardedLoads(), stats.serverInvalidations(), stats.flushes());
    }
}
