package io.adaptivecache.memcached;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.strategy.ConnectionFactory;
import org.slf4j.Logger;

/**
 * What the factories of both drivers' clients share ({@link SpymemcachedConnections},
 * {@link XMemcachedConnections}): the servers, the connect timeout, the description that
 * messages name, the reachability check of a template that started without its servers, and
 * what a client that reached none or only some of them says.
 *
 * @param <C> the driver's client type
 */
abstract class MemcachedConnections<C> implements ConnectionFactory<C> {

    /** The servers, in the order given. */
    final List<InetSocketAddress> addresses;

    /** Longest wait for a new client to connect. */
    final Duration connectTimeout;

    /** The servers as {@code host:port[:weight]}, separated by commas, for messages. */
    final String description;

    MemcachedConnections(List<InetSocketAddress> addresses, Duration connectTimeout, List<MemcachedServerAddress> servers) {
        this.addresses = addresses;
        this.connectTimeout = connectTimeout;
        this.description = servers.stream().map(MemcachedServerAddress::toString).collect(Collectors.joining(","));
    }

    /**
     * The failure of a client that reached no server within the connect timeout.
     * @return the exception to throw, once the client is shut down
     */
    CacheConnectionException noServerConnected() {
        return new CacheConnectionException("Cannot connect to any memcached server of " + description + " within "
                + connectTimeout.toMillis() + " ms", null);
    }

    /**
     * Warns of a client that reached only some servers within the connect timeout; it is kept, the
     * keys on the others fail until those answer.
     * @param logger the driver's logger
     * @param connected how many servers it reached
     */
    void warnPartlyConnected(Logger logger, int connected) {
        logger.warn("Connected to {} of {} memcached servers of {} within {} ms; keys on the others fail until they answer",
                connected, addresses.size(), description, connectTimeout.toMillis());
    }

    /** Each connection is a client of its own, with its own I/O thread (spymemcached) or reactor threads (XMemcached). */
    @Override
    public boolean threadPerConnection() {
        return true;
    }

    @Override
    public void checkReachable() {
        Reachability.check(addresses, connectTimeout, description);
    }

    @Override
    public String describe() {
        return description;
    }
}
