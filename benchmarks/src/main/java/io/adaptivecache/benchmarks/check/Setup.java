package io.adaptivecache.benchmarks.check;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.devservers.DelayingProxy;
import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.near.NearCacheSettings;
import io.adaptivecache.near.NearCacheTemplate;
import io.adaptivecache.near.NearCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.tracking.RedisInvalidations;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;

/**
 * What a check runs against: a server the run starts on a free loopback port, near-cache
 * instances on it (each with a template of its own and, on Redis, an invalidation source of its
 * own, as separate JVMs would have; the first instance's data path runs through a delaying proxy
 * so that its reads can be made slow), and a plain client that does not track, for the writers
 * and the faults. Closes everything it made.
 */
abstract class Setup implements AutoCloseable {

    /** The prefix of the checked keys, the one the near caches cache. */
    static final String PREFIX = "check:";

    /** How long a template's command, or the plain client's, may take: a frozen server fails them soon. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

    final List<NearCacheTemplate> nears = new ArrayList<>();
    final List<ManagedCacheTemplate> remotes = new ArrayList<>();
    /** Everything opened, the last first: in this order a near cache closes before its template, a template before its server. */
    final Deque<AutoCloseable> opened = new ArrayDeque<>();
    final ServerProcess server;
    final DelayingProxy proxy;

    Setup(ServerProcess server) throws IOException {
        this.server = server;
        opened.push(server);
        server.start();
        this.proxy = new DelayingProxy(ServerProcess.HOST, server.port());
        opened.push(proxy);
    }

    /**
     * A Redis server with near caches invalidated by tracking.
     * @param instances how many near-cache instances
     * @param heartbeat the invalidation sources' heartbeat interval; the timeout is twice that
     * @param fillers how many other keys, with a long time to live, to keep on the server: among
     *        many keys with a TTL, Redis's active expiry takes long to find an expired one
     */
    static Setup redis(int instances, Duration heartbeat, int fillers) throws IOException {
        return new Redis(instances, heartbeat, fillers);
    }

    /**
     * A memcached server with staleness-bounded near caches.
     * @param instances how many near-cache instances
     * @param maxStaleness their max staleness: the bound
     */
    static Setup memcached(int instances, Duration maxStaleness) throws IOException {
        return new Memcached(instances, maxStaleness);
    }

    /** @return which server */
    abstract Backend backend();

    /** @return the bound every read is checked against: the near caches' staleness bound */
    Duration bound() {
        return nears.get(0).stalenessBound();
    }

    /** @return the faults that apply to this server */
    abstract List<FaultDriver.Fault> faults();

    /** @return whether the plain client can give a key a time to live of milliseconds ({@code PEXPIRE}, {@code SET PX}) */
    abstract boolean expiries();

    /** The strategies a switch fault moves a template between. */
    abstract List<StrategySpec> strategies();

    // The plain client: it does not track; its futures complete when the server answers. A store's future may give the
    // value it replaced (text), where the server tells.

    abstract CompletableFuture<?> set(String key, long value, long ttlMillis);

    abstract CompletableFuture<?> delete(String key);

    abstract CompletableFuture<Long> incr(String key);

    /** {@code PEXPIRE}: true if the key existed. */
    abstract CompletableFuture<Boolean> expire(String key, long ttlMillis);

    /** Every key gone: {@code FLUSHALL}, {@code flush_all}. */
    abstract void flushAll();

    /**
     * Redis: empties database 1 (which Redis reports to the near caches as a flush), waits for
     * them to cache again, then {@code SWAPDB 0 1}: every key of database 0 is gone.
     * @param recache how long to wait between the two
     * @param swap runs the swap (and records it)
     */
    void swapDatabases(Duration recache, Consumer<Runnable> swap) {
        throw new UnsupportedOperationException();
    }

    /** Redis: kills one near cache's invalidation connection ({@code CLIENT KILL ID}); false if none was connected. */
    boolean killTrackingConnection(int which) {
        throw new UnsupportedOperationException();
    }

    /** Redis: holds every write for a while ({@code CLIENT PAUSE ms WRITE}), so that writes run together when it ends. */
    void pauseWrites(Duration pause) {
        throw new UnsupportedOperationException();
    }

    /** Puts back what a flush took that the run needs besides the checked keys (Redis's fillers). */
    void refill() {
    }

    /** @return a line for the report */
    abstract String describe();

    /** The near caches' settings: the checked keys' prefix, the rest as a user would leave it. */
    static NearCacheSettings nearSettings() {
        return NearCacheSettings.builder().keyPrefixes(PREFIX).build();
    }

    /** One instance of the application: its template and its near cache over it, closed with the rest. */
    void addInstance(ManagedCacheTemplate remote, NearCacheTemplate near) {
        opened.push(near);
        remotes.add(remote);
        nears.add(near);
    }

    static String key(int index) {
        return PREFIX + "k" + index;
    }

    @Override
    public void close() {
        for (AutoCloseable each : opened) {
            try {
                each.close();
            }
            catch (Exception ex) {
                // Closing the rest matters more.
            }
        }
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(COMMAND_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
        }
        catch (Exception ex) {
            throw new IllegalStateException("The plain client's command failed: " + ex, ex);
        }
    }

    /** Redis, tracked by the near caches' invalidation sources (BCAST on the prefix). */
    private static final class Redis extends Setup {

        /** Fillers set at a time: few enough that none waits behind the others for long. */
        private static final int REFILL_BATCH = 1_000;

        private final RedisClient client;
        private final RedisAsyncCommands<String, String> plain;
        private final RedisAsyncCommands<String, String> database1;
        private final int fillers;
        private final Duration heartbeat;

        Redis(int instances, Duration heartbeat, int fillers) throws IOException {
            super(new RedisServer());
            this.fillers = fillers;
            this.heartbeat = heartbeat;
            // Reconnecting within 100 ms of a restart, not Lettuce's default of up to 30 s: the plain writers write on.
            ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1)
                    .reconnectDelay(Delay.constant(Duration.ofMillis(100))).build();
            opened.push(() -> resources.shutdown(0, 2, TimeUnit.SECONDS).await(3, TimeUnit.SECONDS));
            this.client = RedisClient.create(resources);
            client.setOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(COMMAND_TIMEOUT)).build());
            opened.push(() -> client.shutdown(0, 2, TimeUnit.SECONDS));
            RedisURI uri = RedisURI.create(ServerProcess.HOST, server.port());
            StatefulRedisConnection<String, String> connection = client.connect(uri);
            this.plain = connection.async();
            RedisURI secondDatabase = RedisURI.builder(uri).withDatabase(1).build();
            this.database1 = client.connect(secondDatabase).async();
            for (int i = 0; i < instances; i++) {
                String name = "near-" + i;
                // The first instance's data path goes through the proxy (slow reads on demand); tracking never does.
                int dataPort = i == 0 ? proxy.port() : server.port();
                ManagedCacheTemplate remote = RedisCacheTemplates.builder().uri("redis://" + ServerProcess.HOST + ":" + dataPort)
                        .name(name).strategy(strategies().get(i % strategies().size())).commandTimeout(COMMAND_TIMEOUT)
                        .maxReconnectDelay(Duration.ofMillis(200)).start();
                opened.push(remote);
                InvalidationSource invalidations = RedisInvalidations.builder().uri("redis://" + server.address()).name(name)
                        .heartbeatInterval(heartbeat).heartbeatTimeout(heartbeat.multipliedBy(2))
                        .maxReconnectDelay(Duration.ofMillis(200)).start();
                opened.push(invalidations);
                addInstance(remote, NearCacheTemplates.redis(remote, invalidations, nearSettings()));
            }
        }

        @Override
        Backend backend() {
            return Backend.REDIS;
        }

        @Override
        List<FaultDriver.Fault> faults() {
            return List.of(FaultDriver.Fault.values());
        }

        @Override
        boolean expiries() {
            return true;
        }

        @Override
        List<StrategySpec> strategies() {
            return List.of(StrategySpec.multi(2, SelectorType.ROUND_ROBIN), StrategySpec.single(),
                    StrategySpec.pooled(PoolSettings.ofSize(4)));
        }

        @Override
        CompletableFuture<?> set(String key, long value, long ttlMillis) {
            // SET ... GET: the value it replaced orders it after the write that produced that value.
            return (ttlMillis > 0 ? plain.setGet(key, Long.toString(value), SetArgs.Builder.px(ttlMillis))
                    : plain.setGet(key, Long.toString(value))).toCompletableFuture();
        }

        @Override
        CompletableFuture<?> delete(String key) {
            return plain.del(key).toCompletableFuture();
        }

        @Override
        CompletableFuture<Long> incr(String key) {
            return plain.incr(key).toCompletableFuture();
        }

        @Override
        CompletableFuture<Boolean> expire(String key, long ttlMillis) {
            return plain.pexpire(key, ttlMillis).toCompletableFuture();
        }

        @Override
        void flushAll() {
            await(plain.flushall().toCompletableFuture());
        }

        @Override
        void swapDatabases(Duration recache, Consumer<Runnable> swap) {
            // Database 1 holds what the last swap took from database 0. Emptied long before the swap, not right after it:
            // FLUSHDB of any database is reported to every tracking connection, which would hide the swap's own silence.
            await(database1.flushdb().toCompletableFuture());
            LockSupport.parkNanos(recache.toNanos());
            swap.accept(() -> await(plain.swapdb(0, 1).toCompletableFuture()));
        }

        @Override
        boolean killTrackingConnection(int which) {
            List<String> ids = new ArrayList<>();
            for (String line : ((RedisServer) server).command("CLIENT", "LIST").split("\r?\n")) {
                if (line.contains(" name=adaptive-cache-invalidations-")) {
                    for (String field : line.split(" ")) {
                        if (field.startsWith("id=")) {
                            ids.add(field.substring(3));
                        }
                    }
                }
            }
            if (ids.isEmpty()) {
                return false;
            }
            ((RedisServer) server).command("CLIENT", "KILL", "ID", ids.get(Math.floorMod(which, ids.size())));
            return true;
        }

        @Override
        void pauseWrites(Duration pause) {
            ((RedisServer) server).command("CLIENT", "PAUSE", Long.toString(pause.toMillis()), "WRITE");
        }

        @Override
        void refill() {
            // In batches: 20,000 sets queued at once, each timed from its dispatch, outlasted the command timeout on a
            // busy two-core machine; a batch of a thousand is answered in milliseconds.
            List<CompletableFuture<?>> sets = new ArrayList<>(REFILL_BATCH);
            for (int i = 0; i < fillers; i++) {
                sets.add(plain.set("filler:" + i, "x", SetArgs.Builder.ex(3600)).toCompletableFuture());
                if (sets.size() == REFILL_BATCH || i == fillers - 1) {
                    sets.forEach(Setup::await);
                    sets.clear();
                }
            }
        }

        @Override
        String describe() {
            return String.format("redis-server %s on loopback; %d near-cache instances (a template and an invalidation source"
                    + " each, heartbeat %d ms, timeout %d ms; the first one's data path through a delaying proxy), %,d other keys"
                    + " with a 1 h TTL", ((RedisServer) server).info("server", "redis_version"), nears.size(), heartbeat.toMillis(),
                    heartbeat.multipliedBy(2).toMillis(), fillers);
        }
    }

    /** memcached, with staleness-bounded near caches and a template without one as the plain client. */
    private static final class Memcached extends Setup {

        private final ManagedCacheTemplate plain;
        private final Duration maxStaleness;

        Memcached(int instances, Duration maxStaleness) throws IOException {
            super(new MemcachedServer());
            this.maxStaleness = maxStaleness;
            this.plain = template("plain", server.address(), StrategySpec.single());
            opened.push(plain);
            for (int i = 0; i < instances; i++) {
                String name = "near-" + i;
                ManagedCacheTemplate remote = template(name, ServerProcess.HOST + ":" + (i == 0 ? proxy.port() : server.port()),
                        strategies().get(i % strategies().size()));
                opened.push(remote);
                addInstance(remote, NearCacheTemplates.stalenessBounded(remote, maxStaleness, nearSettings()));
            }
        }

        private static ManagedCacheTemplate template(String name, String address, StrategySpec strategy) {
            return MemcachedCacheTemplates.builder().servers(address).name(name).strategy(strategy).operationTimeout(COMMAND_TIMEOUT)
                    .maxReconnectDelay(Duration.ofSeconds(1)).start();
        }

        @Override
        Backend backend() {
            return Backend.MEMCACHED;
        }

        @Override
        List<FaultDriver.Fault> faults() {
            return List.of(FaultDriver.Fault.FREEZE, FaultDriver.Fault.RESTART, FaultDriver.Fault.FLUSHALL,
                    FaultDriver.Fault.SWITCH, FaultDriver.Fault.SLOW_READS);
        }

        @Override
        boolean expiries() {
            return false; // memcached's TTLs are whole seconds on a clock that ticks once a second
        }

        @Override
        List<StrategySpec> strategies() {
            return List.of(StrategySpec.multi(2, SelectorType.ROUND_ROBIN), StrategySpec.single());
        }

        @Override
        CompletableFuture<?> set(String key, long value, long ttlMillis) {
            return plain.setAsync(key, Long.toString(value).getBytes(StandardCharsets.US_ASCII), Duration.ZERO);
        }

        @Override
        CompletableFuture<?> delete(String key) {
            return plain.deleteAsync(key);
        }

        @Override
        CompletableFuture<Long> incr(String key) {
            return plain.incrAsync(key, 1);
        }

        @Override
        CompletableFuture<Boolean> expire(String key, long ttlMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        void flushAll() {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(ServerProcess.HOST, server.port()), (int) COMMAND_TIMEOUT.toMillis());
                socket.setSoTimeout((int) COMMAND_TIMEOUT.toMillis());
                OutputStream out = socket.getOutputStream();
                out.write("flush_all\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                byte[] reply = new byte[4];
                int read = in.readNBytes(reply, 0, 4);
                if (read != 4 || !"OK\r\n".equals(new String(reply, StandardCharsets.US_ASCII))) {
                    throw new IllegalStateException("flush_all answered " + new String(reply, 0, read, StandardCharsets.US_ASCII));
                }
            }
            catch (IOException ex) {
                throw new IllegalStateException("flush_all failed: " + ex, ex);
            }
        }

        @Override
        String describe() {
            return String.format("memcached %s on loopback; %d staleness-bounded near-cache instances (max staleness %d ms; the"
                    + " first one's data path through a delaying proxy); a template without a near cache as the plain writer",
                    ((MemcachedServer) server).stat("version"), nears.size(), maxStaleness.toMillis());
        }
    }
}
