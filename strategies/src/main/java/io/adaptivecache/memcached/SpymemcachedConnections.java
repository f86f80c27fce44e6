package io.adaptivecache.memcached;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.adaptivecache.CacheConnectionException;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.ConnectionObserver;
import net.spy.memcached.MemcachedClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens spymemcached clients ({@link MemcachedDriver#SPYMEMCACHED}), each with a spymemcached
 * connection factory of its own so that clients share nothing they could shut down for one
 * another. {@link #open()} returns once the client is connected to every server, or to at least
 * one when the connect timeout passes.
 */
final class SpymemcachedConnections extends MemcachedConnections<SpymemcachedClient> {

    private static final Logger logger = LoggerFactory.getLogger(SpymemcachedConnections.class);

    private final Map<InetSocketAddress, Integer> weights;
    private final Consumer<ConnectionFactoryBuilder> configuration;
    private final @Nullable String username;

    /**
     * Creates a factory.
     * @param servers the servers and their weights
     * @param configuration applies the template's settings (and users' customizers) to each client's builder
     * @param connectTimeout longest wait for a new client to connect
     */
    SpymemcachedConnections(List<MemcachedServerAddress> servers, Consumer<ConnectionFactoryBuilder> configuration,
            Duration connectTimeout) {
        this(servers, configuration, connectTimeout, null);
    }

    /**
     * Creates a factory whose clients authenticate.
     * @param servers the servers and their weights
     * @param configuration applies the template's settings (and users' customizers) to each client's builder
     * @param connectTimeout longest wait for a new client to connect
     * @param username the SASL user the configuration authenticates as, to check and name in errors; {@code null} for none
     */
    SpymemcachedConnections(List<MemcachedServerAddress> servers, Consumer<ConnectionFactoryBuilder> configuration,
            Duration connectTimeout, @Nullable String username) {
        this(weightsByAddress(servers), configuration, connectTimeout, username, servers);
    }

    private SpymemcachedConnections(Map<InetSocketAddress, Integer> weights, Consumer<ConnectionFactoryBuilder> configuration,
            Duration connectTimeout, @Nullable String username, List<MemcachedServerAddress> servers) {
        super(List.copyOf(weights.keySet()), connectTimeout, servers);
        this.username = username;
        SpymemcachedLogging.useSlf4j();
        this.weights = weights;
        this.configuration = configuration;
    }

    /** Each server's weight by its address, in the order given; a server listed twice counts once. */
    private static Map<InetSocketAddress, Integer> weightsByAddress(List<MemcachedServerAddress> servers) {
        Map<InetSocketAddress, Integer> byAddress = new LinkedHashMap<>();
        for (MemcachedServerAddress server : servers) {
            byAddress.put(new InetSocketAddress(server.host(), server.port()), server.weight());
        }
        return byAddress;
    }

    @Override
    public SpymemcachedClient open() {
        Set<SocketAddress> connected = ConcurrentHashMap.newKeySet();
        CountDownLatch allConnected = new CountDownLatch(addresses.size());
        ConnectionObserver observer = new ConnectionObserver() {
            @Override
            public void connectionEstablished(SocketAddress address, int reconnectCount) {
                if (connected.add(address)) {
                    allConnected.countDown();
                }
            }

            @Override
            public void connectionLost(SocketAddress address) {
            }
        };
        ConnectionFactoryBuilder builder = new ConnectionFactoryBuilder();
        configuration.accept(builder);
        builder.setInitialObservers(List.of(observer));
        SpymemcachedClient client;
        try {
            client = new SpymemcachedClient(new WeightedKetamaConnectionFactory(builder.build(), weights).asConnectionFactory(), addresses);
        }
        catch (IOException ex) {
            throw new CacheConnectionException("Cannot open a memcached client for " + description + ": " + ex.getMessage(), ex);
        }
        try {
            if (!allConnected.await(connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                if (connected.isEmpty()) {
                    client.shutdown();
                    throw noServerConnected();
                }
                warnPartlyConnected(logger, connected.size());
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            client.shutdown();
            throw new CacheConnectionException("Interrupted while connecting to memcached at " + description, ex);
        }
        if (username != null) {
            checkAuthenticated(client);
        }
        return client;
    }

    /**
     * spymemcached authenticates in the background and, when the server refuses, retries while
     * cancelling every operation (memcached answers {@code version} even before authentication);
     * a read answered by a connected server is the proof that the credentials were accepted. The
     * message names the user, never the password.
     */
    private void checkAuthenticated(MemcachedClient client) {
        boolean answered;
        try {
            net.spy.memcached.internal.GetFuture<Object> read = client.asyncGet("adaptive-cache:authentication-check");
            read.get(connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
            // A refused read completes as a miss; only its status tells "not found" from "not authenticated".
            net.spy.memcached.ops.OperationStatus status = read.getStatus();
            answered = status.isSuccess() || status.getStatusCode() == net.spy.memcached.ops.StatusCode.ERR_NOT_FOUND;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            answered = false;
        }
        catch (Exception ex) {
            answered = false;
        }
        if (!answered) {
            client.shutdown();
            throw new io.adaptivecache.CacheAuthenticationException("memcached at " + description
                    + " did not accept SASL authentication as user '" + username
                    + "' (check adaptive-cache.memcached.username and password, and that the server runs with -S)", username,
                    "SASL authentication was not accepted", "adaptive-cache.memcached.username and adaptive-cache.memcached.password",
                    null);
        }
    }

    @Override
    public boolean isUsable(SpymemcachedClient client) {
        return !client.getAvailableServers().isEmpty();
    }

    @Override
    public void close(SpymemcachedClient client) {
        client.shutdown();
    }
}
