package io.adaptivecache.benchmarks.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisClusterCacheTemplates;
import io.adaptivecache.strategy.StrategySpec;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

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

    /**
     * Fills one Redis hash with the key space, one field per key: the store of a client that keeps
     * its entries in a hash (Redisson's maps), filled with the same keys and value as the others'.
     * @param address the Redis server's {@code host:port}
     * @param hash the hash's key
     * @param value the value
     */
    public static void fillHash(String address, String hash, byte[] value) {
        RedisClient client = RedisClient.create("redis://" + address);
        try (StatefulRedisConnection<String, byte[]> connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE))) {
            connection.sync().del(hash);
            Map<String, byte[]> batch = new HashMap<>();
            for (int i = 0; i < ClosedLoopRunner.KEYS; i++) {
                batch.put(ClosedLoopRunner.KEY_PREFIX + i, value);
                if (batch.size() == 1000 || i == ClosedLoopRunner.KEYS - 1) {
                    connection.sync().hset(hash, batch);
                    batch.clear();
                }
            }
        }
        finally {
            client.shutdown();
        }
    }
}
