package io.adaptivecache.benchmarks.targets;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.targets.AdaptiveTemplateClient.AdaptiveTimings;
import io.adaptivecache.benchmarks.targets.BenchTarget.Kind;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.memcached.MemcachedDriver;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisClusterCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;

/**
 * Every target the benchmark knows. Every client gets the same timeout (command, operation and
 * pool wait) so that no target fails where another merely waits; pools are fixed-size.
 */
public final class Targets {

    /**
     * The Redis hash that holds the Redisson target's map: a run fills it with the key space
     * ({@link io.adaptivecache.benchmarks.load.KeyspaceFiller#fillHash}) as it fills the keys of the others.
     */
    public static final String REDISSON_MAP = "bench-near";

    /**
     * The key space of our near-cache target, which tracks only this prefix: a run fills it
     * beside the shared one ({@link io.adaptivecache.benchmarks.load.KeyspaceFiller#fill}).
     */
    public static final String NEAR_KEY_PREFIX = "near:";

    /** The id of adaptive-cache in adaptive mode, on either backend. */
    public static final String ADAPTIVE = "ours-adaptive";

    private Targets() {
    }

    /**
     * The catalog.
     * @param cores N for the multi-connection strategies (the machine's processor count)
     * @param timeout every client's timeout
     * @param window the adaptive switcher's window
     * @param dwell its least time between switches
     * @param trial its trial length
     * @return every target, Redis first
     */
    public static List<BenchTarget> all(int cores, Duration timeout, Duration window, Duration dwell, Duration trial) {
        AdaptiveTimings timings = new AdaptiveTimings(window, dwell, trial);
        List<BenchTarget> targets = new ArrayList<>();
        StrategySpec multi = StrategySpec.multi(cores, SelectorType.ROUND_ROBIN);

        Backend redis = Backend.REDIS;
        targets.add(new BenchTarget("ours-single", "CacheTemplate, SINGLE", redis, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new CacheTemplateClient(redis(host, port, timeout, StrategySpec.single()))));
        targets.add(new BenchTarget("ours-multi", "CacheTemplate, MULTI(" + cores + ")", redis, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new CacheTemplateClient(redis(host, port, timeout, multi))));
        for (int size : new int[] {8, 50}) {
            targets.add(new BenchTarget("ours-pooled-" + size, "CacheTemplate, POOLED(" + size + ")", redis, Kind.ADAPTIVE_CACHE,
                    (host, port, threads) -> new CacheTemplateClient(redis(host, port, timeout, pooled(size, timeout)))));
        }
        targets.add(new BenchTarget(ADAPTIVE, "CacheTemplate, adaptive (starts MULTI(" + cores + "))", redis, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new AdaptiveTemplateClient(redis(host, port, timeout, multi), timings)));
        for (int size : new int[] {8, 50}) {
            targets.add(new BenchTarget("ours-jedis-pooled-" + size, "CacheTemplate, POOLED(" + size + ") on blocking Jedis connections",
                    redis, Kind.ADAPTIVE_CACHE, (host, port, threads) -> new CacheTemplateClient(
                            redis(host, port, timeout, pooled(size, timeout), RedisDriver.JEDIS))));
        }
        targets.add(new BenchTarget("ours-adaptive-jedis", "CacheTemplate, adaptive with blocking Jedis POOLED (starts MULTI(" + cores
                + "))", redis, Kind.ADAPTIVE_CACHE, (host, port, threads) -> new AdaptiveTemplateClient(
                        redis(host, port, timeout, multi, RedisDriver.JEDIS), timings)));
        // Local tiers, for the read-heavy near-cache goals: ours over the default template, and Redisson's.
        targets.add(new BenchTarget("ours-near-adaptive-jedis", "near cache (Redis invalidations) over the CacheTemplate, adaptive with"
                + " blocking Jedis POOLED", redis, Kind.ADAPTIVE_CACHE, (host, port, threads) -> NearCacheClients.ours(host, port,
                        timeout, redis(host, port, timeout, multi, RedisDriver.JEDIS), timings)));
        targets.add(new BenchTarget("redisson-local", "Redisson RLocalCachedMap (invalidate on change, LRU of 10,000, cleared on"
                + " reconnect)", redis, Kind.PEER, (host, port, threads) -> NearCacheClients.redisson(host, port, timeout)));
        targets.add(new BenchTarget("lettuce-single", "Lettuce by hand, one shared connection", redis, Kind.HAND_WRITTEN,
                (host, port, threads) -> LettuceClients.shared(host, port, timeout)));
        targets.add(new BenchTarget("lettuce-multi", "Lettuce by hand, " + cores + " connections round-robin", redis,
                Kind.HAND_WRITTEN, (host, port, threads) -> LettuceClients.multi(host, port, cores, timeout)));
        for (int size : new int[] {8, 50}) {
            targets.add(new BenchTarget("lettuce-pool-" + size, "Lettuce by hand, commons-pool2 pool of " + size, redis,
                    Kind.HAND_WRITTEN, (host, port, threads) -> LettuceClients.pooled(host, port, size, timeout)));
        }
        targets.add(new BenchTarget("sdr-shared", "Spring Data RedisTemplate, Lettuce shared connection (Boot default)", redis,
                Kind.PEER, (host, port, threads) -> SpringDataRedisClients.shared(host, port, timeout)));
        targets.add(new BenchTarget("sdr-pool-8", "Spring Data RedisTemplate, Lettuce commons-pool2 pool of 8", redis, Kind.PEER,
                (host, port, threads) -> SpringDataRedisClients.pooled(host, port, 8, timeout)));
        for (int size : new int[] {8, 50, 200}) {
            targets.add(new BenchTarget("jedis-pool-" + size, "Jedis, JedisPool of " + size, redis, Kind.PEER,
                    (host, port, threads) -> new JedisPoolClient(host, port, size, timeout)));
        }

        Backend memcached = Backend.MEMCACHED;
        targets.add(new BenchTarget("ours-single", "CacheTemplate, SINGLE", memcached, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new CacheTemplateClient(memcached(host, port, timeout, StrategySpec.single()))));
        targets.add(new BenchTarget("ours-multi", "CacheTemplate, MULTI(" + cores + ")", memcached, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new CacheTemplateClient(memcached(host, port, timeout, multi))));
        targets.add(new BenchTarget("ours-pooled-8", "CacheTemplate, POOLED(8)", memcached, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new CacheTemplateClient(memcached(host, port, timeout, pooled(8, timeout)))));
        targets.add(new BenchTarget(ADAPTIVE, "CacheTemplate, adaptive (starts MULTI(" + cores + "))", memcached,
                Kind.ADAPTIVE_CACHE, (host, port, threads) -> new AdaptiveTemplateClient(memcached(host, port, timeout, multi), timings)));
        targets.add(new BenchTarget("ours-x-single", "CacheTemplate, SINGLE on the XMemcached driver", memcached, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new CacheTemplateClient(memcached(host, port, timeout, StrategySpec.single(),
                        MemcachedDriver.XMEMCACHED))));
        targets.add(new BenchTarget("ours-x-multi", "CacheTemplate, MULTI(" + cores + ") on the XMemcached driver", memcached,
                Kind.ADAPTIVE_CACHE, (host, port, threads) -> new CacheTemplateClient(memcached(host, port, timeout, multi,
                        MemcachedDriver.XMEMCACHED))));
        targets.add(new BenchTarget("ours-x-pooled-8", "CacheTemplate, POOLED(8) on the XMemcached driver", memcached,
                Kind.ADAPTIVE_CACHE, (host, port, threads) -> new CacheTemplateClient(memcached(host, port, timeout, pooled(8, timeout),
                        MemcachedDriver.XMEMCACHED))));
        targets.add(new BenchTarget("ours-x-adaptive", "CacheTemplate, adaptive on the XMemcached driver (starts MULTI(" + cores
                + "))", memcached, Kind.ADAPTIVE_CACHE, (host, port, threads) -> new AdaptiveTemplateClient(
                        memcached(host, port, timeout, multi, MemcachedDriver.XMEMCACHED), timings)));
        targets.add(new BenchTarget("spy-single", "spymemcached by hand, one client", memcached, Kind.HAND_WRITTEN,
                (host, port, threads) -> SpymemcachedClients.shared(host, port, timeout)));
        targets.add(new BenchTarget("spy-array", "spymemcached by hand, array of " + cores + " clients round-robin", memcached,
                Kind.HAND_WRITTEN, (host, port, threads) -> SpymemcachedClients.array(host, port, cores, timeout)));
        targets.add(new BenchTarget("spy-pool-8", "spymemcached by hand, commons-pool2 pool of 8 clients", memcached,
                Kind.HAND_WRITTEN, (host, port, threads) -> SpymemcachedClients.pooled(host, port, 8, timeout)));
        targets.add(new BenchTarget("xmemcached", "XMemcached, connection pool of " + cores, memcached, Kind.PEER,
                (host, port, threads) -> new XMemcachedPoolClient(host, port, cores, timeout)));
        // The same client as our SINGLE on the XMemcached driver (one client, one connection): our overhead alone.
        targets.add(new BenchTarget("xmemcached-1", "XMemcached by hand, one client with one connection", memcached,
                Kind.HAND_WRITTEN, (host, port, threads) -> new XMemcachedPoolClient(host, port, 1, timeout)));

        Backend cluster = Backend.REDIS_CLUSTER;
        targets.add(new BenchTarget("ours-single", "CacheTemplate, SINGLE (one cluster connection)", cluster, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new CacheTemplateClient(cluster(host, port, timeout, StrategySpec.single()))));
        targets.add(new BenchTarget("ours-multi", "CacheTemplate, MULTI(" + cores + ") cluster connections", cluster,
                Kind.ADAPTIVE_CACHE, (host, port, threads) -> new CacheTemplateClient(cluster(host, port, timeout, multi))));
        for (int size : new int[] {8, 50}) {
            targets.add(new BenchTarget("ours-pooled-" + size, "CacheTemplate, POOLED(" + size + ") cluster connections", cluster,
                    Kind.ADAPTIVE_CACHE,
                    (host, port, threads) -> new CacheTemplateClient(cluster(host, port, timeout, pooled(size, timeout)))));
        }
        targets.add(new BenchTarget(ADAPTIVE, "CacheTemplate, adaptive (starts MULTI(" + cores + "))", cluster, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new AdaptiveTemplateClient(cluster(host, port, timeout, multi), timings)));
        targets.add(new BenchTarget("lettuce-cluster", "Lettuce by hand, one shared cluster connection (Spring Data's default)",
                cluster, Kind.HAND_WRITTEN, (host, port, threads) -> LettuceClients.cluster(host, port, timeout)));
        targets.add(new BenchTarget("jedis-cluster", "Jedis, JedisCluster with a pool of 50 per node", cluster, Kind.PEER,
                (host, port, threads) -> new JedisClusterClient(host, port, 50, timeout)));
        return List.copyOf(targets);
    }

    private static StrategySpec pooled(int size, Duration maxWait) {
        return StrategySpec.pooled(new PoolSettings(size, size, 0, maxWait));
    }

    private static ManagedCacheTemplate redis(String host, int port, Duration timeout,
            StrategySpec strategy) {
        return redis(host, port, timeout, strategy, RedisDriver.LETTUCE);
    }

    private static ManagedCacheTemplate redis(String host, int port, Duration timeout, StrategySpec strategy, RedisDriver pooledDriver) {
        return RedisCacheTemplates.builder().uri("redis://" + host + ":" + port).commandTimeout(timeout).pooledDriver(pooledDriver)
                .strategy(strategy).start();
    }

    private static ManagedCacheTemplate cluster(String host, int port, Duration timeout, StrategySpec strategy) {
        return RedisClusterCacheTemplates.builder().nodes(host + ":" + port).commandTimeout(timeout).strategy(strategy).start();
    }

    private static ManagedCacheTemplate memcached(String host, int port, Duration timeout,
            StrategySpec strategy) {
        return memcached(host, port, timeout, strategy, MemcachedDriver.SPYMEMCACHED);
    }

    private static ManagedCacheTemplate memcached(String host, int port, Duration timeout, StrategySpec strategy,
            MemcachedDriver driver) {
        return MemcachedCacheTemplates.builder().servers(host + ":" + port).driver(driver).operationTimeout(timeout)
                .strategy(strategy).start();
    }
}
