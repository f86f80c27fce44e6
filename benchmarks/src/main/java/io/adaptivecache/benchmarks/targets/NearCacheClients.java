package io.adaptivecache.benchmarks.targets;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.adaptivecache.benchmarks.load.ClosedLoopRunner;
import io.adaptivecache.benchmarks.load.LoadedClient;
import io.adaptivecache.benchmarks.load.Settling;
import io.adaptivecache.benchmarks.load.StalenessProbe;
import io.adaptivecache.benchmarks.targets.AdaptiveTemplateClient.AdaptiveTimings;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.near.NearCacheSettings;
import io.adaptivecache.near.NearCacheTemplate;
import io.adaptivecache.near.NearCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisWrites;
import io.adaptivecache.redis.tracking.RedisInvalidations;
import io.adaptivecache.strategy.StrategySpec;
import org.redisson.Redisson;
import org.redisson.api.RLocalCachedMap;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.LocalCachedMapOptions;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;
import org.redisson.codec.CompositeCodec;
import org.redisson.config.Config;

/**
 * Clients with a local tier in front of Redis, each with a {@link StalenessProbe} whose writes come
 * from a second client without one (another application instance): our near cache over a template,
 * and Redisson's {@code RLocalCachedMap}. Both hold up to {@value ClosedLoopRunner#KEYS} entries (the
 * whole key space) and drop their local copies when their invalidation channel reconnects.
 */
final class NearCacheClients {

    /** The pause between the probe's writes through the other instance. */
    static final Duration PROBE_WRITES = Duration.ofMillis(5);

    /** The pause between the probe's reads through the local tier: the staleness figures' resolution. */
    static final Duration PROBE_READS = Duration.ofNanos(200_000);

    private static final String REDISSON_MAP = Targets.REDISSON_MAP;

    /** Our near cache's key space and the only prefix it tracks: see {@link LoadedClient#keyPrefix()}. */
    static final String NEAR_PREFIX = Targets.NEAR_KEY_PREFIX;

    private NearCacheClients() {
    }

    /**
     * Our near cache, with the invalidation source the auto-configuration would give it, in front of
     * an adaptive template.
     * @param host the server's host
     * @param port its port
     * @param timeout every client's timeout
     * @param template the template behind the local tier
     * @param timings the adaptive switcher's timings
     * @return the client
     */
    static LoadedClient ours(String host, int port, Duration timeout, ManagedCacheTemplate template, AdaptiveTimings timings) {
        AdaptiveTemplateClient adaptive = new AdaptiveTemplateClient(template, timings);
        InvalidationSource invalidations = RedisInvalidations.builder().uri("redis://" + host + ":" + port).name("bench").start();
        NearCacheTemplate near = NearCacheTemplates.redis(template, invalidations,
                NearCacheSettings.builder().name("bench").maximumEntries(ClosedLoopRunner.KEYS).keyPrefixes(NEAR_PREFIX).build());
        // The other instance: a template of its own, without a local tier.
        ManagedCacheTemplate other = RedisCacheTemplates.builder().uri("redis://" + host + ":" + port).commandTimeout(timeout)
                .strategy(StrategySpec.single()).start();
        StalenessProbe probe = new StalenessProbe(NEAR_PREFIX + "probe:" + pid(), (key, value) -> other.set(key, value, Duration.ZERO), near::get,
                other::close, PROBE_WRITES, PROBE_READS);
        return new OurNearCache(near, adaptive, invalidations, probe);
    }

    /**
     * Redisson's local cached map as its documentation sets it up for a near cache: invalidate on
     * change, a bounded LRU local store, cleared on reconnect; everything else Redisson's defaults.
     * @param host the server's host
     * @param port its port
     * @param timeout every client's timeout
     * @return the client
     */
    static LoadedClient redisson(String host, int port, Duration timeout) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + host + ":" + port).setTimeout((int) timeout.toMillis());
        RedissonClient redisson = Redisson.create(config);
        // Keys as UTF-8 strings and values as raw bytes: the hash fields and values the run filled it with.
        CompositeCodec codec = new CompositeCodec(StringCodec.INSTANCE, ByteArrayCodec.INSTANCE);
        RLocalCachedMap<String, byte[]> map = redisson.getLocalCachedMap(options(codec));
        // The other instance: a second map object of the same name, whose writes the first hears about like any other's.
        RLocalCachedMap<String, byte[]> other = redisson.getLocalCachedMap(options(codec));
        StalenessProbe probe = new StalenessProbe(ClosedLoopRunner.KEY_PREFIX + "probe:" + pid(), other::fastPut, map::get, () -> other.destroy(), PROBE_WRITES,
                PROBE_READS);
        return new RedissonLocalCache(redisson, map, probe);
    }

    private static LocalCachedMapOptions<String, byte[]> options(CompositeCodec codec) {
        return LocalCachedMapOptions.<String, byte[]>name(REDISSON_MAP).codec(codec).cacheSize(ClosedLoopRunner.KEYS)
                .evictionPolicy(LocalCachedMapOptions.EvictionPolicy.LRU)
                .syncStrategy(LocalCachedMapOptions.SyncStrategy.INVALIDATE)
                .reconnectionStrategy(LocalCachedMapOptions.ReconnectionStrategy.CLEAR);
    }

    /** In the probe's key: one key per JVM, so that an A/A twin's probe never writes this one's. */
    private static long pid() {
        return ProcessHandle.current().pid();
    }

    /**
     * Ours: reads and writes through the near cache (a template like any other, so the plain
     * template client's get and set); settles and reports as the adaptive template behind it.
     */
    private static final class OurNearCache extends CacheTemplateClient {

        private final NearCacheTemplate near;
        private final AdaptiveTemplateClient adaptive;
        private final InvalidationSource invalidations;
        private final StalenessProbe probe;

        OurNearCache(NearCacheTemplate near, AdaptiveTemplateClient adaptive, InvalidationSource invalidations, StalenessProbe probe) {
            super(near);
            this.near = near;
            this.adaptive = adaptive;
            this.invalidations = invalidations;
            this.probe = probe;
        }

        @Override
        public Settling settle(long loadStartedNanos, Duration limit) {
            return this.adaptive.settle(loadStartedNanos, limit);
        }

        @Override
        public String liveStrategy() {
            return this.adaptive.liveStrategy();
        }

        @Override
        public List<Switch> switchesSince(java.time.Instant since) {
            return this.adaptive.switchesSince(since);
        }

        @Override
        public StalenessProbe stalenessProbe() {
            return this.probe;
        }

        @Override
        public Optional<RedisWrites> redisWrites() {
            // The local tier has no connection of its own: its misses and writes reach Redis through the template behind it.
            return this.adaptive.redisWrites();
        }

        @Override
        public String keyPrefix() {
            return NEAR_PREFIX;
        }

        @Override
        public void close() {
            this.probe.close();
            // Into the worker's log: how the local tier fared over the workload (hits, discarded loads, invalidations).
            System.err.println("near cache at close: " + this.near.stats());
            super.close();
            this.invalidations.close();
            this.adaptive.close();
        }
    }

    /**
     * Redisson's: {@code get} and {@code fastPut} (the call that skips returning the previous value).
     * @param redisson the client, shut down on close
     * @param map the local cached map
     * @param stalenessProbe its probe
     */
    private record RedissonLocalCache(RedissonClient redisson, RLocalCachedMap<String, byte[]> map, StalenessProbe stalenessProbe)
            implements LoadedClient {

        @Override
        public byte[] get(String key) {
            return this.map.get(key);
        }

        @Override
        public void set(String key, byte[] value) {
            this.map.fastPut(key, value);
        }

        @Override
        public void close() {
            this.stalenessProbe.close();
            this.map.destroy();
            this.redisson.shutdown();
        }
    }
}
