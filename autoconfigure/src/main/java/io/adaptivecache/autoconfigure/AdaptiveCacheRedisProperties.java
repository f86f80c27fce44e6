package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Properties of the Redis cache template, over lettuce-core ({@code adaptive-cache.redis}).
 */
@ConfigurationProperties("adaptive-cache.redis")
public class AdaptiveCacheRedisProperties extends AdaptiveCacheTemplateProperties {

    /** Properties of the Redis template, at their defaults until bound. */
    public AdaptiveCacheRedisProperties() {
        super("redis");
    }

    /** Redis URL, such as redis://user:password@example.com:6379/0 or rediss:// for TLS. Overrides host, port, username, password, database and ssl. */
    private @Nullable String url;

    /** Redis server host. Defaults to localhost, or to spring.data.redis.* when no adaptive-cache.redis connection setting is given. */
    private @Nullable String host;

    /** Redis server port. Defaults to 6379. */
    private @Nullable Integer port;



    /** Database index. Defaults to 0. */
    private @Nullable Integer database;

    // The sections are values bound through their constructors: each starts as its defaults, bound from nothing (the
    // @DefaultValue annotations are their one statement), as a section none of whose properties is set is not bound.

    /** TLS. */
    @NestedConfigurationProperty
    private Ssl ssl = PropertyDefaults.of(Ssl.class);

    /** Client name set on each connection with CLIENT SETNAME. */
    private @Nullable String clientName;

    /** Network transport of Lettuce's event loops: auto takes io_uring, then epoll, then nio, by what the machine supports. Lettuce has one transport per JVM, chosen when its first client starts. */
    private io.adaptivecache.redis.RedisTransport transport = io.adaptivecache.redis.RedisTransport.AUTO;

    /**
     * Driver of POOLED connections: jedis (blocking connections doing the I/O on the caller's thread, about twice
     * Lettuce's throughput for few callers on a short round trip; synchronous calls only, ...Async calls keep to
     * a shared Lettuce connection) or lettuce. Defaults to jedis when redis.clients:jedis is on the class path
     * (the starter brings it) and the template is not a Redis Cluster's, lettuce otherwise. SINGLE and MULTI
     * always run on Lettuce.
     */
    private io.adaptivecache.redis.@Nullable RedisDriver pooledDriver;

    /** Redis Cluster: name its nodes to talk to a cluster rather than to one server. */
    @NestedConfigurationProperty
    private Cluster cluster = PropertyDefaults.of(Cluster.class);

    /** Command timeout, enforced by Lettuce's own timer. */
    private Duration timeout = Duration.ofSeconds(1);


    /** Maximum commands queued or in flight per connection; more fail at once. */
    private int requestQueueSize = 8192;

    /** Whether the commands that concurrent callers send on one Lettuce connection at about the same moment go to the server in one socket write, rather than a system call and a server read each. A lone caller's command is never held back: it leaves in the same turn of the connection's event loop. */
    private boolean coalesceWrites = true;

    /** Longest key accepted, in UTF-8 bytes. */
    private DataSize maxKeySize = DataSize.ofKilobytes(16);

    /** Largest value accepted. */
    private DataSize maxValueSize = DataSize.ofMegabytes(512);

    @Override
    void validateBackend(String prefix) {
        if (this.port != null) {
            PropertyRules.between(prefix + ".port", this.port, 1, 65535, "between 1 and 65535");
        }
        if (this.database != null) {
            PropertyRules.zeroOrMore(prefix + ".database", this.database, "");
        }
        PropertyRules.present(prefix + ".transport", this.transport, "auto, nio, epoll or io_uring");
        PropertyRules.positive(prefix + ".timeout", this.timeout);
        PropertyRules.positive(prefix + ".max-reconnect-delay", getMaxReconnectDelay());
        PropertyRules.atLeast(prefix + ".request-queue-size", this.requestQueueSize, 1);
        PropertyRules.size(prefix + ".max-key-size", this.maxKeySize, DataSize.ofBytes(1), "1B");
        PropertyRules.size(prefix + ".max-value-size", this.maxValueSize, DataSize.ofBytes(1), "1B");
        this.cluster.validate(prefix + ".cluster");
    }

    /** Whether any connection setting of adaptive-cache.redis is given (otherwise spring.data.redis.* is used when present). */
    boolean hasConnectionSettings() {
        return this.url != null || this.host != null || this.port != null || getUsername() != null
                || getPassword() != null || this.database != null || this.ssl.enabled() != null || this.ssl.bundle() != null
                || this.clientName != null || !this.cluster.nodes().isEmpty();
    }

    public @Nullable String getUrl() {
        return this.url;
    }

    public void setUrl(@Nullable String url) {
        this.url = url;
    }

    public @Nullable String getHost() {
        return this.host;
    }

    public void setHost(@Nullable String host) {
        this.host = host;
    }

    public @Nullable Integer getPort() {
        return this.port;
    }

    public void setPort(@Nullable Integer port) {
        this.port = port;
    }

    public @Nullable Integer getDatabase() {
        return this.database;
    }

    public void setDatabase(@Nullable Integer database) {
        this.database = database;
    }

    public Ssl getSsl() {
        return this.ssl;
    }

    public void setSsl(Ssl ssl) {
        this.ssl = ssl;
    }

    public Cluster getCluster() {
        return this.cluster;
    }

    public void setCluster(Cluster cluster) {
        this.cluster = cluster;
    }

    public io.adaptivecache.redis.@Nullable RedisDriver getPooledDriver() {
        return this.pooledDriver;
    }

    public void setPooledDriver(io.adaptivecache.redis.@Nullable RedisDriver pooledDriver) {
        this.pooledDriver = pooledDriver;
    }

    public io.adaptivecache.redis.RedisTransport getTransport() {
        return this.transport;
    }

    public void setTransport(io.adaptivecache.redis.RedisTransport transport) {
        this.transport = transport;
    }

    public @Nullable String getClientName() {
        return this.clientName;
    }

    public void setClientName(@Nullable String clientName) {
        this.clientName = clientName;
    }

    public Duration getTimeout() {
        return this.timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public int getRequestQueueSize() {
        return this.requestQueueSize;
    }

    public void setRequestQueueSize(int requestQueueSize) {
        this.requestQueueSize = requestQueueSize;
    }

    public boolean isCoalesceWrites() {
        return this.coalesceWrites;
    }

    public void setCoalesceWrites(boolean coalesceWrites) {
        this.coalesceWrites = coalesceWrites;
    }

    public DataSize getMaxKeySize() {
        return this.maxKeySize;
    }

    public void setMaxKeySize(DataSize maxKeySize) {
        this.maxKeySize = maxKeySize;
    }

    public DataSize getMaxValueSize() {
        return this.maxValueSize;
    }

    public void setMaxValueSize(DataSize maxValueSize) {
        this.maxValueSize = maxValueSize;
    }

    /**
     * TLS to Redis.
     * @param enabled Whether to connect with TLS; on when a bundle is named or the URL is rediss://.
     * @param bundle Name of the SSL bundle (spring.ssl.bundle.*) whose trust material, and key material for client
     *        certificates, to use; without one the JVM's default trust store is used.
     */
    public record Ssl(@Nullable Boolean enabled, @Nullable String bundle) {
    }

    /**
     * Redis Cluster.
     * @param nodes Seed nodes of a Redis Cluster, as host:port; any reachable one is enough to discover the others. When
     *        set, the Redis template talks to the cluster, and url, host, port and database are ignored (username,
     *        password, ssl and client-name apply to every node).
     * @param maxRedirects Most MOVED or ASK redirects a command follows.
     * @param readFrom Where reads go: master, master-preferred, replica, replica-preferred, any-replica, any or
     *        lowest-latency. Defaults to the masters; a replica may answer with a slightly older value.
     * @param refresh Cluster topology refresh.
     * @param nodeBreaker Each node's own circuit breaker.
     */
    public record Cluster(@DefaultValue List<String> nodes, @DefaultValue("5") int maxRedirects, @Nullable String readFrom,
            @DefaultValue Refresh refresh, @DefaultValue NodeBreaker nodeBreaker) {

        /** Checks the values; the nodes and read-from are checked where they are turned into Lettuce's. */
        void validate(String prefix) {
            PropertyRules.zeroOrMore(prefix + ".max-redirects", this.maxRedirects, "");
            PropertyRules.positive(prefix + ".refresh.period", this.refresh.period());
            PropertyRules.zeroOrMore(prefix + ".node-breaker.failure-threshold", this.nodeBreaker.failureThreshold(),
                    "no node breakers");
            PropertyRules.positive(prefix + ".node-breaker.open-duration", this.nodeBreaker.openDuration());
        }
    }

    /**
     * A Redis Cluster node's own circuit breaker: one frozen or dead node costs its own slots' callers a fast failure,
     * not every caller a timeout.
     * @param failureThreshold Calls in a row that a node did not answer (timeouts, lost connections) after which calls
     *        for its slots fail at once (a miss under on-failure: degrade); 0 turns the node breakers off.
     * @param openDuration How long an open node breaker refuses calls before it lets one trial call through.
     */
    public record NodeBreaker(@DefaultValue("5") int failureThreshold, @DefaultValue("1s") Duration openDuration) {
    }

    /**
     * Redis Cluster topology refresh.
     * @param period How often the topology is read again, whatever happens.
     * @param adaptive Whether the topology is read again at once (at most once a second) on MOVED or ASK redirects,
     *        reconnects (a failed master), unknown nodes and uncovered slots, and checked with another master (at most
     *        every 250 ms) when a node does not answer a call.
     */
    public record Refresh(@DefaultValue("30s") Duration period, @DefaultValue("true") boolean adaptive) {
    }
}
