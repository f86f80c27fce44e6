package io.adaptivecache.benchmarks.servers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.testservers.RedisCluster;

/**
 * The servers a run talks to: its own {@code redis-server}, {@code memcached} and Redis Cluster
 * (six {@code redis-server}s) on free loopback ports unless addresses are given, and a delaying proxy in front of each when the run
 * includes the delayed network. Everything started here is stopped by {@link #close()}.
 */
public final class BenchmarkServers implements AutoCloseable {

    /** memcached memory: 10,000 values of 100 KiB and the slab overhead around them. */
    private static final int MEMCACHED_MEGABYTES = 2048;

    private final Map<Backend, String> direct = new EnumMap<>(Backend.class);
    private final Map<Backend, ProxyProcess> proxies = new EnumMap<>(Backend.class);
    private final List<AutoCloseable> started = new ArrayList<>();

    /**
     * Starts what is needed.
     * @param backends the servers the run uses
     * @param addresses given addresses ({@code host:port}) by backend; others are started here
     * @param delayed whether to put a delaying proxy in front of each server
     * @param delayMillis the proxy's delay in each direction
     * @throws IOException if a proxy cannot start
     */
    public BenchmarkServers(List<Backend> backends, Map<Backend, String> addresses, boolean delayed, long delayMillis)
            throws IOException {
        try {
            for (Backend backend : backends) {
                String address = addresses.get(backend);
                if (address == null && backend == Backend.REDIS_CLUSTER) {
                    RedisCluster cluster = new RedisCluster();
                    this.started.add(cluster);
                    cluster.start();
                    // Any node will do: the client discovers the others from it.
                    address = cluster.masters().get(0).address();
                }
                else if (address == null) {
                    ServerProcess server = backend == Backend.REDIS ? new RedisServer()
                            : new MemcachedServer().withMemoryMegabytes(MEMCACHED_MEGABYTES);
                    server.start();
                    this.started.add(server);
                    address = server.address();
                }
                this.direct.put(backend, address);
                if (delayed && backend.supports(Network.DELAYED)) {
                    ProxyProcess proxy = new ProxyProcess(address, delayMillis);
                    this.started.add(proxy);
                    this.proxies.put(backend, proxy);
                }
            }
        }
        catch (IOException | RuntimeException ex) {
            close();
            throw ex;
        }
    }

    /**
     * Where a client of a backend connects over a network.
     * @param backend the server
     * @param network the path
     * @return {@code host:port}
     */
    public String address(Backend backend, Network network) {
        String address = this.direct.get(backend);
        if (address == null) {
            throw new IllegalArgumentException("No " + backend.label() + " server in this run");
        }
        if (network == Network.LOOPBACK) {
            return address;
        }
        return ServerProcess.HOST + ":" + this.proxies.get(backend).port();
    }

    /**
     * Changes the delaying proxy's delay in front of a backend while its connections stay open,
     * so that a phase run can step the round trip under a running client.
     * @param backend the server
     * @param millis the delay in each direction
     * @throws IOException if the proxy does not confirm
     */
    public void delayMillis(Backend backend, long millis) throws IOException {
        ProxyProcess proxy = this.proxies.get(backend);
        if (proxy == null) {
            throw new IllegalStateException("No delaying proxy in front of " + backend.label() + " in this run");
        }
        proxy.delayMillis(millis);
    }

    @Override
    public void close() {
        for (int i = this.started.size() - 1; i >= 0; i--) {
            try {
                this.started.get(i).close();
            }
            catch (Exception ex) {
                System.err.println("Could not stop " + this.started.get(i) + ": " + ex);
            }
        }
        this.started.clear();
    }
}
