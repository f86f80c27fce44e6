package io.adaptivecache.benchmarks.targets;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.benchmarks.load.LoadedClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.support.ConnectionPoolSupport;
import org.apache.commons.pool2.impl.GenericObjectPool;

/**
 * The three strategies written by hand on lettuce-core, with the client options our Redis
 * backend uses (TCP_NODELAY, Lettuce's own command timeout), so that the ratio to our template
 * is the cost of our layer alone.
 */
final class LettuceClients {

    private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

    private LettuceClients() {
    }

    private static RedisClient client(String host, int port, Duration timeout) {
        RedisClient client = RedisClient.create(RedisURI.builder().withHost(host).withPort(port).withTimeout(timeout).build());
        client.setOptions(ClientOptions.builder().socketOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .timeoutOptions(TimeoutOptions.enabled(timeout)).build());
        return client;
    }

    /** One connection shared by every caller. */
    static LoadedClient shared(String host, int port, Duration timeout) {
        return multi(host, port, 1, timeout);
    }

    /** N shared connections, one picked in turn per call. */
    static LoadedClient multi(String host, int port, int connections, Duration timeout) {
        RedisClient client = client(host, port, timeout);
        List<StatefulRedisConnection<String, byte[]>> opened = new ArrayList<>();
        @SuppressWarnings("unchecked")
        RedisCommands<String, byte[]>[] commands = new RedisCommands[connections];
        for (int i = 0; i < connections; i++) {
            StatefulRedisConnection<String, byte[]> connection = client.connect(CODEC);
            opened.add(connection);
            commands[i] = connection.sync();
        }
        RoundRobin next = new RoundRobin(connections);
        return new LoadedClient() {
            @Override
            public byte[] get(String key) {
                return commands[next.next()].get(key);
            }

            @Override
            public void set(String key, byte[] value) {
                commands[next.next()].set(key, value);
            }

            @Override
            public void close() {
                opened.forEach(StatefulRedisConnection::close);
                client.shutdown();
            }
        };
    }

    /**
     * One cluster connection shared by every caller, as Spring Data Redis uses by default: it
     * routes each command to its slot's node over one connection per node.
     */
    static LoadedClient cluster(String host, int port, Duration timeout) {
        RedisClusterClient client = RedisClusterClient.create(RedisURI.builder().withHost(host).withPort(port).withTimeout(timeout).build());
        client.setOptions(ClusterClientOptions.builder().socketOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .timeoutOptions(TimeoutOptions.enabled(timeout)).build());
        StatefulRedisClusterConnection<String, byte[]> connection = client.connect(CODEC);
        RedisAdvancedClusterCommands<String, byte[]> commands = connection.sync();
        return new LoadedClient() {
            @Override
            public byte[] get(String key) {
                return commands.get(key);
            }

            @Override
            public void set(String key, byte[] value) {
                commands.set(key, value);
            }

            @Override
            public void close() {
                connection.close();
                client.shutdown();
            }
        };
    }

    /** A commons-pool2 pool: a caller borrows a connection, uses it alone and returns it. */
    static LoadedClient pooled(String host, int port, int size, Duration timeout) {
        RedisClient client = client(host, port, timeout);
        GenericObjectPool<StatefulRedisConnection<String, byte[]>> pool = ConnectionPoolSupport
                .createGenericObjectPool(() -> client.connect(CODEC), BenchPools.fixedSize(size, timeout));
        return new LoadedClient() {
            @Override
            public byte[] get(String key) {
                return borrowed(pool, connection -> connection.sync().get(key));
            }

            @Override
            public void set(String key, byte[] value) {
                borrowed(pool, connection -> connection.sync().set(key, value));
            }

            @Override
            public void close() {
                pool.close();
                client.shutdown();
            }
        };
    }

    /** Borrows a connection for one command; closing the pooled connection returns it. */
    private static <T> T borrowed(GenericObjectPool<StatefulRedisConnection<String, byte[]>> pool,
            java.util.function.Function<StatefulRedisConnection<String, byte[]>, T> command) {
        try (StatefulRedisConnection<String, byte[]> connection = pool.borrowObject()) {
            return command.apply(connection);
        }
        catch (RuntimeException ex) {
            throw ex;
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
