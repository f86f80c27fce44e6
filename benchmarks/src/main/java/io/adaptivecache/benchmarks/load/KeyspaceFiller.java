package io.adaptivecache.benchmarks.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisClusterCacheTemplates;
import io.adaptivecache.strategy.StrategySpec;

/** Writes every key of the key space with the workload's value before its cells run, so that gets hit from the first call. */
public final class KeyspaceFiller {

    private static final int IN_FLIGHT = 256;

    private KeyspaceFiller() {
    }

    /**
     * Fills the key space.
     * @param backend the server
     * @param address its {@code host:port}
     * @param value the value
     */
    public static void fill(Backend backend, String address, byte[] value) {
        fill(backend, address, value, ClosedLoopRunner::key);
    }

    /**
     * Fills a key space of {@value ClosedLoopRunner#KEYS} keys.
     * @param backend the server
     * @param address its {@code host:port}
     * @param value the value
     * @param keys the key of each index
     */
    public static void fill(Backend backend, String address, byte[] value, IntFunction<String> keys) {
        try (ManagedCacheTemplate template = switch (backend) {
            case REDIS -> RedisCacheTemplates.builder().uri("redis://" + address).commandTimeout(Duration.ofSeconds(10))
                    .strategy(StrategySpec.single()).start();
            case REDIS_CLUSTER -> RedisClusterCacheTemplates.builder().nodes(address).commandTimeout(Duration.ofSeconds(10))
                    .strategy(StrategySpec.single()).start();
            case MEMCACHED -> MemcachedCacheTemplates.builder().servers(address).operationTimeout(Duration.ofSeconds(10))
                    .strategy(StrategySpec.single()).start();
        }) {
            List<CompletableFuture<Void>> inFlight = new ArrayList<>(IN_FLIGHT);
            for (int i = 0; i < ClosedLoopRunner.KEYS; i++) {
                inFlight.add(template.setAsync(keys.apply(i), value, Duration.ZERO));
                if (inFlight.size() == IN_FLIGHT) {
                    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
                    inFlight.clear();
                }
            }
            CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
        }
    }
}
