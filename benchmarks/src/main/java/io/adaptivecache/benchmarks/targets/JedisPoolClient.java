package io.adaptivecache.benchmarks.targets;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.adaptivecache.benchmarks.load.LoadedClient;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/** Jedis with {@code JedisPool}: blocking connections, each borrowed for one command and used on the caller's thread. */
final class JedisPoolClient implements LoadedClient {

    private final JedisPool pool;

    JedisPoolClient(String host, int port, int size, Duration timeout) {
        this.pool = new JedisPool(BenchPools.fixedSize(size, timeout), host, port, (int) timeout.toMillis());
    }

    @Override
    public byte[] get(String key) {
        try (Jedis jedis = this.pool.getResource()) {
            return jedis.get(key.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Override
    public void set(String key, byte[] value) {
        try (Jedis jedis = this.pool.getResource()) {
            jedis.set(key.getBytes(StandardCharsets.UTF_8), value);
        }
    }

    @Override
    public void close() {
        this.pool.close();
    }
}
