package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Properties of the Redis cache template, over lettuce-core ({@code adaptive-cache.redis}).
 */
@ConfigurationProperties("adaptive-cache.redis")
public class AdaptiveCacheRedisProperties extends AdaptiveCacheTemplateProperties {

    /** The Redis template's name, which is also its section's under {@code adaptive-cache}. */
    static final String TEMPLATE_NAME = "redis";

    @Override
    public String templateName() {
        return TEMPLATE_NAME;
    }

    /** Redis URL, such as redis://user:password@example.com:6379/0 or rediss:// for TLS. Overrides host, port, username, password, database and ssl. */
    private @Nullable String url;

    /** Redis server host. Defaults to localhost, or to spring.data.redis.* when no adaptive-cache.redis connection setting is given. */
    private @Nullable String host;

    /** Redis server port. Defaults to 6379. */
    private @Nullable Integer port;

    /** Login username of the Redis server. */
    private @Nullable String username;

    /** Login password of the Redis server. */
    private @Nullable String password;

    /** Database index. Defaults to 0. */
    private @Nullable Integer database;

    /** TLS. */
    @NestedConfigurationProperty
    private final Ssl ssl = new Ssl();

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
    private final Cluster cluster = new Cluster();

    /** Command timeout, enforced by Lettuce's own timer. */
    private Duration timeout = Duration.ofSeconds(1);

    /** Connection timeout. */
    private Duration connectTimeout = Duration.ofSeconds(2);

    /** Longest wait between reconnect attempts after a connection is lost (they grow exponentially from 10 ms). */
    private Duration maxReconnectDelay = Duration.ofSeconds(2);

    /** Maximum commands queued or in flight per connection; more fail at once. */
    private int requestQueueSize = 8192;

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
        PropertyRules.positive(prefix + ".connect-timeout", this.connectTimeout);
        PropertyRules.positive(prefix + ".max-reconnect-delay", this.maxReconnectDelay);
        PropertyRules.atLeast(prefix + ".request-queue-size", this.requestQueueSize, 1);
        PropertyRules.size(prefix + ".max-key-size", this.maxKeySize, DataSize.ofBytes(1), "1B");
        PropertyRules.size(prefix + ".max-value-size", this.maxValueSize, DataSize.ofBytes(1), "1B");
        this.cluster.validate(prefix + ".cluster");
    }

    /** Whether any connection setting of adaptive-cache.redis is given (otherwise spring.data.redis.* is used when present). */
    boolean hasConnectionSettings() {
        return this.url != null || this.host != null || this.port != null || this.username != null
                || this.password != null || this.database != null || this.ssl.getEnabled() != null || this.ssl.getBundle() != null
                || this.clientName != null || !this.cluster.getNodes().isEmpty();
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

    public @Nullable String getUsername() {
        return this.username;
    }

    public void setUsername(@Nullable String username) {
        this.username = username;
    }

    public @Nullable String getPassword() {
        return this.password;
    }

    public void setPassword(@Nullable String password) {
        this.password = password;
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

    public Cluster getCluster() {
        return this.cluster;
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

    public Duration getConnectTimeout() {
        return this.connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public Duration getMaxReconnectDelay() {
        return this.maxReconnectDelay;
    }

    public void setMaxReconnectDelay(Duration maxReconnectDelay) {
        this.maxReconnectDelay = maxReconnectDelay;
    }

    public int getRequestQueueSize() {
        return this.requestQueueSize;
    }

    public void setRequestQueueSize(int requestQueueSize) {
        this.requestQueueSize = requestQueueSize;
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
    /** TLS to Redis. */
    public static class Ssl {

        /** Whether to connect with TLS; on when a bundle is named or the URL is rediss://. */
        private @Nullable Boolean enabled;

        /** Name of the SSL bundle (spring.ssl.bundle.*) whose trust material, and key material for client certificates, to use; without one the JVM's default trust store is used. */
        private @Nullable String bundle;

        public @Nullable Boolean getEnabled() {
            return this.enabled;
        }

        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }

        public @Nullable String getBundle() {
            return this.bundle;
        }

        public void setBundle(@Nullable String bundle) {
            this.bundle = bundle;
        }
    }

    /** Redis Cluster. */
    public static class Cluster {

        /** Seed nodes of a Redis Cluster, as host:port; any reachable one is enough to discover the others. When set, the Redis template talks to the cluster, and url, host, port and database are ignored (username, password, ssl and client-name apply to every node). */
        private List<String> nodes = new ArrayList<>();

        /** Most MOVED or ASK redirects a command follows. */
        private int maxRedirects = 5;

        /** Where reads go: master, master-preferred, replica, replica-preferred, any-replica, any or lowest-latency. Defaults to the masters; a replica may answer with a slightly older value. */
        private @Nullable String readFrom;

        /** Cluster topology refresh. */
        @NestedConfigurationProperty
        private final Refresh refresh = new Refresh();

        public List<String> getNodes() {
            return this.nodes;
        }

        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }

        public int getMaxRedirects() {
            return this.maxRedirects;
        }

        public void setMaxRedirects(int maxRedirects) {
            this.maxRedirects = maxRedirects;
        }

        public @Nullable String getReadFrom() {
            return this.readFrom;
        }

        public void setReadFrom(@Nullable String readFrom) {
            this.readFrom = readFrom;
        }

        public Refresh getRefresh() {
            return this.refresh;
        }

        /** Each node's own circuit breaker. */
        @NestedConfigurationProperty
        private final NodeBreaker nodeBreaker = new NodeBreaker();

        public NodeBreaker getNodeBreaker() {
            return this.nodeBreaker;
        }

        /** Checks the values; the nodes and read-from are checked where they are turned into Lettuce's. */
        void validate(String prefix) {
            PropertyRules.zeroOrMore(prefix + ".max-redirects", this.maxRedirects, "");
            PropertyRules.positive(prefix + ".refresh.period", this.refresh.getPeriod());
            PropertyRules.zeroOrMore(prefix + ".node-breaker.failure-threshold", this.nodeBreaker.getFailureThreshold(),
                    "no node breakers");
            PropertyRules.positive(prefix + ".node-breaker.open-duration", this.nodeBreaker.getOpenDuration());
        }
    }

    /** A Redis Cluster node's own circuit breaker: one frozen or dead node costs its own slots' callers a fast failure, not every caller a timeout. */
    public static class NodeBreaker {

        /** Calls in a row that a node did not answer (timeouts, lost connections) after which calls for its slots fail at once (a miss under on-failure: degrade); 0 turns the node breakers off. */
        private int failureThreshold = 5;

        /** How long an open node breaker refuses calls before it lets one trial call through. */
        private Duration openDuration = Duration.ofSeconds(1);

        public int getFailureThreshold() {
            return this.failureThreshold;
        }

        public void setFailureThreshold(int failureThreshold) {
            this.failureThreshold = failureThreshold;
        }

        public Duration getOpenDuration() {
            return this.openDuration;
        }

        public void setOpenDuration(Duration openDuration) {
            this.openDuration = openDuration;
        }
    }

    /** Redis Cluster topology refresh. */
    public static class Refresh {

        /** How often the topology is read again, whatever happens. */
        private Duration period = Duration.ofSeconds(30);

        /** Whether the topology is read again at once (at most once a second) on MOVED or ASK redirects, reconnects (a failed master), unknown nodes and uncovered slots, and checked with another master (at most every 250 ms) when a node does not answer a call. */
        private boolean adaptive = true;

        public Duration getPeriod() {
            return this.period;
        }

        public void setPeriod(Duration period) {
            this.period = period;
        }

        public boolean isAdaptive() {
            return this.adaptive;
        }

        public void setAdaptive(boolean adaptive) {
            this.adaptive = adaptive;
        }
    }
}
