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

    /**
     * The id of the template a Spring Boot service gets from the starter with only the server's
     * address set, on either backend: on the production timings ({@link BootDefaults}), whatever a
     * run gives the templates it builds itself, and on the Redis transport the starter picks.
     */
    public static final String BOOT_DEFAULT = "boot-default";

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
        templates(targets, redis, "ours-", "", cores, new int[] {8, 50}, timeout, timings,
                (host, port, strategy) -> redis(host, port, timeout, strategy));
        // The shared connections with every command flushed on its own, as Lettuce does: what coalesced writes give.
        TemplateOpener uncoalesced = (host, port, strategy) -> uncoalesced(host, port, timeout, strategy);
        targets.add(fixed(redis, "ours-single-uncoalesced", "SINGLE, writes not coalesced", StrategySpec.single(), uncoalesced));
        targets.add(fixed(redis, "ours-multi-uncoalesced", "MULTI(" + cores + "), writes not coalesced", multi, uncoalesced));
        TemplateOpener jedis = (host, port, strategy) -> redis(host, port, timeout, strategy, RedisDriver.JEDIS);
        for (int size : new int[] {8, 50}) {
            targets.add(fixed(redis, "ours-jedis-pooled-" + size, "POOLED(" + size + ") on blocking Jedis connections",
                    pooled(size, timeout), jedis));
        }
        targets.add(new BenchTarget("ours-adaptive-jedis", "CacheTemplate, adaptive with blocking Jedis POOLED (starts MULTI(" + cores
                + "))", redis, Kind.ADAPTIVE_CACHE, (host, port, threads) -> new AdaptiveTemplateClient(jedis.open(host, port, multi),
                        timings)));
        targets.add(new BenchTarget(BOOT_DEFAULT, "CacheTemplate bean of a Spring Boot context with the starter's defaults (only"
                + " adaptive-cache.redis.url set; Actuator and Micrometer present)", redis, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> BootDefaultClient.open(redis, host, port)));
        // Local tiers, for the read-heavy near-cache goals: ours over the default template, and Redisson's.
        targets.add(new BenchTarget("ours-near-adaptive-jedis", "near cache (Redis invalidations) over the CacheTemplate, adaptive with"
                + " blocking Jedis POOLED", redis, Kind.ADAPTIVE_CACHE, (host, port, threads) -> NearCacheClients.ours(host, port,
                        timeout, jedis.open(host, port, multi), timings)));
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
        // The same RedisTemplate on our factory (adaptive-cache.redis.spring-data.enabled), over a template on each strategy.
        targets.add(new BenchTarget("sdr-ours-single", "Spring Data RedisTemplate on adaptive-cache's factory, template SINGLE", redis,
                Kind.ADAPTIVE_CACHE, (host, port, threads) -> SpringDataRedisClients.adaptive(redis(host, port, timeout,
                        StrategySpec.single()))));
        targets.add(new BenchTarget("sdr-ours-multi", "Spring Data RedisTemplate on adaptive-cache's factory, template MULTI(" + cores
                + ")", redis, Kind.ADAPTIVE_CACHE, (host, port, threads) -> SpringDataRedisClients.adaptive(redis(host, port, timeout,
                        multi))));
        targets.add(new BenchTarget("sdr-ours-pooled-8", "Spring Data RedisTemplate on adaptive-cache's factory, template POOLED(8)",
                redis, Kind.ADAPTIVE_CACHE, (host, port, threads) -> SpringDataRedisClients.adaptive(redis(host, port, timeout,
                        pooled(8, timeout)))));
        for (int size : new int[] {8, 50, 200}) {
            targets.add(new BenchTarget("jedis-pool-" + size, "Jedis, JedisPool of " + size, redis, Kind.PEER,
                    (host, port, threads) -> new JedisPoolClient(host, port, size, timeout)));
        }

        Backend memcached = Backend.MEMCACHED;
        templates(targets, memcached, "ours-", "", cores, new int[] {8}, timeout, timings,
                (host, port, strategy) -> memcached(host, port, timeout, strategy, MemcachedDriver.SPYMEMCACHED));
        templates(targets, memcached, "ours-x-", " on the XMemcached driver", cores, new int[] {8}, timeout, timings,
                (host, port, strategy) -> memcached(host, port, timeout, strategy, MemcachedDriver.XMEMCACHED));
        targets.add(new BenchTarget(BOOT_DEFAULT, "CacheTemplate bean of a Spring Boot context with the starter's defaults (only"
                + " adaptive-cache.memcached.servers set; Actuator and Micrometer present)", memcached, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> BootDefaultClient.open(memcached, host, port)));
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
        templates(targets, cluster, "ours-", " on cluster connections", cores, new int[] {8, 50}, timeout, timings,
                (host, port, strategy) -> cluster(host, port, timeout, strategy));
        targets.add(new BenchTarget("lettuce-cluster", "Lettuce by hand, one shared cluster connection (Spring Data's default)",
                cluster, Kind.HAND_WRITTEN, (host, port, threads) -> LettuceClients.cluster(host, port, timeout)));
        targets.add(new BenchTarget("jedis-cluster", "Jedis, JedisCluster with a pool of 50 per node", cluster, Kind.PEER,
                (host, port, threads) -> new JedisClusterClient(host, port, 50, timeout)));
        return List.copyOf(targets);
    }

    /**
     * Whether a target runs on the production timings of {@link BootDefaults} rather than a run's.
     * @param id a target id, with or without {@code @transport} and an A/A twin's suffix
     * @return whether it is the Boot-built default
     */
    public static boolean bootBuilt(String id) {
        return id.equals(BOOT_DEFAULT) || id.startsWith(BOOT_DEFAULT + "@") || id.startsWith(BOOT_DEFAULT + "#");
    }

    /**
     * Our template on each fixed strategy, SINGLE, MULTI at one connection per core and POOLED at
     * each size, and adaptive starting on MULTI: the same ids on every backend
     * ({@code ours-single}, ..., {@value #ADAPTIVE}), so that goals name them alike.
     */
    private static void templates(List<BenchTarget> targets, Backend backend, String idPrefix, String on, int cores, int[] poolSizes,
            Duration timeout, AdaptiveTimings timings, TemplateOpener opener) {
        StrategySpec multi = StrategySpec.multi(cores, SelectorType.ROUND_ROBIN);
        targets.add(fixed(backend, idPrefix + "single", "SINGLE" + on, StrategySpec.single(), opener));
        targets.add(fixed(backend, idPrefix + "multi", "MULTI(" + cores + ")" + on, multi, opener));
        for (int size : poolSizes) {
            targets.add(fixed(backend, idPrefix + "pooled-" + size, "POOLED(" + size + ")" + on, pooled(size, timeout), opener));
        }
        targets.add(new BenchTarget(idPrefix + "adaptive", "CacheTemplate, adaptive (starts MULTI(" + cores + "))" + on, backend,
                Kind.ADAPTIVE_CACHE, (host, port, threads) -> new AdaptiveTemplateClient(opener.open(host, port, multi), timings)));
    }

    /** Our template on one fixed strategy. */
    private static BenchTarget fixed(Backend backend, String id, String strategy, StrategySpec spec, TemplateOpener opener) {
        return new BenchTarget(id, "CacheTemplate, " + strategy, backend, Kind.ADAPTIVE_CACHE,
                (host, port, threads) -> new CacheTemplateClient(opener.open(host, port, spec)));
    }

    /** Starts a template of one backend and driver on a strategy. */
    @FunctionalInterface
    private interface TemplateOpener {

        ManagedCacheTemplate open(String host, int port, StrategySpec strategy);
    }

    private static StrategySpec pooled(int size, Duration maxWait) {
        return StrategySpec.pooled(new PoolSettings(size, size, 0, maxWait));
    }

    private static ManagedCacheTemplate redis(String host, int port, Duration timeout, StrategySpec strategy) {
        return redis(host, port, timeout, strategy, RedisDriver.LETTUCE);
    }

    private static ManagedCacheTemplate redis(String host, int port, Duration timeout, StrategySpec strategy, RedisDriver pooledDriver) {
        return RedisCacheTemplates.builder().uri("redis://" + host + ":" + port).commandTimeout(timeout).pooledDriver(pooledDriver)
                .strategy(strategy).start();
    }

    private static ManagedCacheTemplate uncoalesced(String host, int port, Duration timeout, StrategySpec strategy) {
        return RedisCacheTemplates.builder().uri("redis://" + host + ":" + port).commandTimeout(timeout).coalesceWrites(false)
                .strategy(strategy).start();
    }

    private static ManagedCacheTemplate cluster(String host, int port, Duration timeout, StrategySpec strategy) {
        return RedisClusterCacheTemplates.builder().nodes(host + ":" + port).commandTimeout(timeout).strategy(strategy).start();
    }

    private static ManagedCacheTemplate memcached(String host, int port, Duration timeout, StrategySpec strategy,
            MemcachedDriver driver) {
        return MemcachedCacheTemplates.builder().servers(host + ":" + port).driver(driver).operationTimeout(timeout)
                .strategy(strategy).start();
    }
}
