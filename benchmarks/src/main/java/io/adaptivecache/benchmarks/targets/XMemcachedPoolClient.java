package io.adaptivecache.benchmarks.targets;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.adaptivecache.benchmarks.load.LoadedClient;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.exception.MemcachedException;
import net.rubyeye.xmemcached.utils.AddrUtil;

/**
 * XMemcached with its connection pool (N NIO connections to the server, shared by every
 * caller), on its default text protocol, storing byte arrays as they are with flags 0.
 */
final class XMemcachedPoolClient implements LoadedClient {

    private final MemcachedClient client;

    XMemcachedPoolClient(String host, int port, int connections, Duration timeout) throws IOException {
        XMemcachedClientBuilder builder = new XMemcachedClientBuilder(AddrUtil.getAddresses(host + ":" + port));
        builder.setConnectionPoolSize(connections);
        builder.setOpTimeout(timeout.toMillis());
        this.client = builder.build();
    }

    @Override
    public byte[] get(String key) {
        return call(() -> this.client.get(key, RawByteValues.XMEMCACHED));
    }

    @Override
    public void set(String key, byte[] value) {
        if (!call(() -> this.client.set(key, 0, value, RawByteValues.XMEMCACHED))) {
            throw new IllegalStateException("memcached did not store the value");
        }
    }

    /** XMemcached's blocking calls throw checked exceptions; the load counts any failure as an error. */
    private static <T> T call(XMemcachedCall<T> call) {
        try {
            return call.run();
        }
        catch (TimeoutException | MemcachedException ex) {
            throw new IllegalStateException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @FunctionalInterface
    private interface XMemcachedCall<T> {
        T run() throws TimeoutException, MemcachedException, InterruptedException;
    }

    @Override
    public void close() {
        try {
            this.client.shutdown();
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
