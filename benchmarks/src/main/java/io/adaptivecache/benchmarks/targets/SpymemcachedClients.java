package io.adaptivecache.benchmarks.targets;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import io.adaptivecache.benchmarks.load.LoadedClient;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.MemcachedClient;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;

/**
 * The three strategies written by hand on spymemcached, set up as our memcached backend sets
 * it up where that matters for speed (binary protocol, no Nagle, SLF4J logging, byte arrays
 * stored as they are with flags 0), so that the ratio to our template is the cost of our layer alone.
 */
final class SpymemcachedClients {

    private SpymemcachedClients() {
    }

    private static MemcachedClient client(String host, int port, Duration timeout) {
        ConnectionFactoryBuilder builder = new ConnectionFactoryBuilder().setProtocol(ConnectionFactoryBuilder.Protocol.BINARY)
                .setUseNagleAlgorithm(false).setOpTimeout(timeout.toMillis()).setDaemon(true);
        try {
            return new MemcachedClient(builder.build(), List.of(new InetSocketAddress(host, port)));
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot open a spymemcached client for " + host + ":" + port, ex);
        }
    }

    /** One client shared by every caller. */
    static LoadedClient shared(String host, int port, Duration timeout) {
        return array(host, port, 1, timeout);
    }

    /** An array of N clients, one picked in turn per call. */
    static LoadedClient array(String host, int port, int clients, Duration timeout) {
        MemcachedClient[] array = new MemcachedClient[clients];
        for (int i = 0; i < clients; i++) {
            array[i] = client(host, port, timeout);
        }
        RoundRobin next = new RoundRobin(clients);
        return new LoadedClient() {
            @Override
            public byte[] get(String key) {
                return array[next.next()].get(key, RawByteValues.SPYMEMCACHED);
            }

            @Override
            public void set(String key, byte[] value) {
                await(array[next.next()].set(key, 0, value, RawByteValues.SPYMEMCACHED));
            }

            @Override
            public void close() {
                for (MemcachedClient client : array) {
                    client.shutdown();
                }
            }
        };
    }

    /** A commons-pool2 pool of clients: a caller borrows a client, uses it alone and returns it. */
    static LoadedClient pooled(String host, int port, int size, Duration timeout) {
        GenericObjectPool<MemcachedClient> pool = new GenericObjectPool<>(new BasePooledObjectFactory<>() {
            @Override
            public MemcachedClient create() {
                return client(host, port, timeout);
            }

            @Override
            public PooledObject<MemcachedClient> wrap(MemcachedClient client) {
                return new DefaultPooledObject<>(client);
            }

            @Override
            public void destroyObject(PooledObject<MemcachedClient> pooled) {
                pooled.getObject().shutdown();
            }
        }, BenchPools.fixedSize(size, timeout));
        return new LoadedClient() {
            @Override
            public byte[] get(String key) {
                MemcachedClient client = borrow(pool);
                try {
                    return client.get(key, RawByteValues.SPYMEMCACHED);
                }
                finally {
                    pool.returnObject(client);
                }
            }

            @Override
            public void set(String key, byte[] value) {
                MemcachedClient client = borrow(pool);
                try {
                    await(client.set(key, 0, value, RawByteValues.SPYMEMCACHED));
                }
                finally {
                    pool.returnObject(client);
                }
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    private static MemcachedClient borrow(GenericObjectPool<MemcachedClient> pool) {
        try {
            return pool.borrowObject();
        }
        catch (RuntimeException ex) {
            throw ex;
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** A set is asynchronous in spymemcached; a caller that wants it stored waits for the reply. */
    private static void await(java.util.concurrent.Future<Boolean> stored) {
        try {
            if (!stored.get()) {
                throw new IllegalStateException("memcached did not store the value");
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        catch (java.util.concurrent.ExecutionException ex) {
            throw new IllegalStateException(ex.getCause());
        }
    }
}
