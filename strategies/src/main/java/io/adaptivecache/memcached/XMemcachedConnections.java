package io.adaptivecache.memcached;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.adaptivecache.CacheConnectionException;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens XMemcached clients ({@link MemcachedDriver#XMEMCACHED}), each with one socket per server
 * (XMemcached's own connection pool stays at 1, so a strategy's connection count is what the
 * server sees). {@link #open()} returns once the client is connected to at least one server.
 */
final class XMemcachedConnections extends MemcachedConnections<MemcachedClient> {

    private static final Logger logger = LoggerFactory.getLogger(XMemcachedConnections.class);

    private final int[] weights;
    private final Consumer<XMemcachedClientBuilder> configuration;

    /**
     * Creates a factory.
     * @param servers the servers and their weights
     * @param configuration applies the template's settings (and users' customizers) to each client's builder
     * @param connectTimeout longest wait for a new client to connect
     */
    XMemcachedConnections(List<MemcachedServerAddress> servers, Consumer<XMemcachedClientBuilder> configuration,
            Duration connectTimeout) {
        super(servers.stream().map(server -> new InetSocketAddress(server.host(), server.port())).toList(), connectTimeout, servers);
        this.weights = servers.stream().mapToInt(MemcachedServerAddress::weight).toArray();
        this.configuration = configuration;
    }

    @Override
    public MemcachedClient open() {
        XMemcachedClientBuilder builder = new XMemcachedClientBuilder(addresses, weights);
        builder.setConnectTimeout(connectTimeout.toMillis());
        configuration.accept(builder);
        MemcachedClient client;
        try {
            client = builder.build();
        }
        catch (IOException ex) {
            throw new CacheConnectionException("Cannot open an XMemcached client for " + description + ": " + ex.getMessage(), ex);
        }
        // XMemcached connects each server within its connect timeout and keeps retrying the others in the background.
        int connected = client.getAvailableServers().size();
        if (connected == 0) {
            shutdown(client);
            throw noServerConnected();
        }
        if (connected < addresses.size()) {
            warnPartlyConnected(logger, connected);
        }
        return client;
    }

    @Override
    public boolean isUsable(MemcachedClient client) {
        return !client.isShutdown() && !client.getAvailableServers().isEmpty();
    }

    @Override
    public void close(MemcachedClient client) {
        shutdown(client);
    }

    private void shutdown(MemcachedClient client) {
        try {
            client.shutdown();
        }
        catch (IOException ex) {
            logger.debug("Closing an XMemcached client for {} failed", description, ex);
        }
    }
}
