package io.adaptivecache.benchmarks.targets;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;

import io.adaptivecache.benchmarks.load.LoadedClient;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

/** Jedis with {@code JedisCluster}: a pool of blocking connections per node, each command on the caller's thread. */
final class JedisClusterClient implements LoadedClient {

    private final JedisCluster cluster;

    JedisClusterClient(String host, int port, int poolSizePerNode, Duration timeout) {
        int millis = (int) timeout.toMillis();
        this.cluster = new JedisCluster(Set.of(new HostAndPort(host, port)), millis, millis, 5,
                BenchPools.<Connection>fixedSize(poolSizePerNode, timeout));
    }

    @Override
    public byte[] get(String key) {
        return this.cluster.get(key.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void set(String key, byte[] value) {
        this.cluster.set(key.getBytes(StandardCharsets.UTF_8), value);
    }

    @Override
    public void close() {
        this.cluster.close();
    }
}
