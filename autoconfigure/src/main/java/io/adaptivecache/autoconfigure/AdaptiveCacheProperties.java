package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.memcached.MemcachedProtocol;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategyType;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties for adaptive-cache.
 */
@ConfigurationProperties("adaptive-cache")
public class AdaptiveCacheProperties {

    /** Redis backend. */
    private final Redis redis = new Redis();

    /** Memcached backend. */
    private final Memcached memcached = new Memcached();

    /** Spring Cache support. */
    private final Cache cache = new Cache();

    /** Micrometer Observations of cache calls. */
    private final Observations observations = new Observations();

    public Redis getRedis() {
        return this.redis;
    }

    public Memcached getMemcached() {
        return this.memcached;
    }

    public Cache getCache() {
        return this.cache;
    }

    public Observations getObservations() {
        return this.observations;
    }

    /** Micrometer Observations of cache calls (spans with tracing), for an application that has an ObservationRegistry. */
    public static class Observations {

        /**
         * Whether each cache-template call is a Micrometer Observation named adaptive.cache.call (a span with tracing), tagged
         * backend, template, command, strategy and outcome, never a key or a value. Off, calls create no observation.
         */
        private boolean enabled;

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** The strategy types a template can be configured with. */
    public enum StrategyChoice {

        /** One shared connection, pinned. */
        SINGLE,
        /** N shared connections, pinned. */
        MULTI,
        /** A pool of connections, pinned. */
        POOLED,
        /** Start with adaptive.initial and let the switcher choose from then on. */
        ADAPTIVE
    }

    /** How a template shares its connections among callers. */
    public static class Strategy {

        /**
         * Connection strategy: adaptive (the default: starts on adaptive.initial and is switched at runtime from
         * measurements), or one pinned: single (one shared connection), multi (N shared connections) or pooled.
         */
        private StrategyChoice type = StrategyChoice.ADAPTIVE;

        /** Settings of the multi strategy. */
        private final Multi multi = new Multi();

        /** Settings of the pooled strategy. */
        private final Pool pool = new Pool();

        public StrategyChoice getType() {
            return this.type;
        }

        public void setType(StrategyChoice type) {
            this.type = type;
        }

        public Multi getMulti() {
            return this.multi;
        }

        public Pool getPool() {
            return this.pool;
        }
    }

    /** Settings of the multi strategy. */
    public static class Multi {

        /** Number of shared connections. Defaults to the number of available processors. */
        private Integer connections;

        /** How each call picks one of the shared connections. */
        private SelectorType selector = SelectorType.ROUND_ROBIN;

        public Integer getConnections() {
            return this.connections;
        }

        public void setConnections(Integer connections) {
            this.connections = connections;
        }

        public SelectorType getSelector() {
            return this.selector;
        }

        public void setSelector(SelectorType selector) {
            this.selector = selector;
        }
    }

    /** Settings of the pooled strategy. */
    public static class Pool {

        /** Maximum number of connections open at once; callers beyond it wait. */
        private int maxTotal = 8;

        /** Maximum number of idle connections kept open. */
        private int maxIdle = 8;

        /** Number of idle connections opened up front and kept open. */
        private int minIdle = 0;

        /** Maximum time a caller waits for a free connection before failing with a timeout. */
        private Duration maxWait = Duration.ofMillis(200);

        public int getMaxTotal() {
            return this.maxTotal;
        }

        public void setMaxTotal(int maxTotal) {
            this.maxTotal = maxTotal;
        }

        public int getMaxIdle() {
            return this.maxIdle;
        }

        public void setMaxIdle(int maxIdle) {
            this.maxIdle = maxIdle;
        }

        public int getMinIdle() {
            return this.minIdle;
        }

        public void setMinIdle(int minIdle) {
            this.minIdle = minIdle;
        }

        public Duration getMaxWait() {
            return this.maxWait;
        }

        public void setMaxWait(Duration maxWait) {
            this.maxWait = maxWait;
        }
    }

    /** The adaptive switcher of one template. */
    public static class Adaptive {

        /** What the switcher does with its decisions when the strategy type is adaptive: auto acts, advise only reports. */
        private AdaptiveMode mode = AdaptiveMode.AUTO;

        /** Strategy to start with when the strategy type is adaptive; shaped by the multi and pool settings. */
        private StrategyType initial = StrategyType.MULTI;

        /** Length of one measurement window; the switcher decides once per window. */
        private Duration window = Duration.ofSeconds(1);

        /**
         * Minimum time between two automatic changes (doubled after each rollback), and how long the load must keep
         * calling for the same change, without a break, before it is made: a load that changes faster than this
         * causes no switch.
         */
        private Duration dwell = Duration.ofSeconds(60);

        /** How long a new strategy is compared against the one it replaced before it is kept or rolled back. */
        private Duration trial = Duration.ofSeconds(30);

        /**
         * Most connections the switcher grows a multi strategy to. Defaults to the number of available processors, or
         * connection-limit if that is lower; at most connection-limit.
         */
        private Integer maxConnections;

        /**
         * Most connections (N of multi, max-total of pooled) that any strategy chosen at runtime may have: an Actuator pin
         * or trial asking for more is refused (400) before anything is opened, and max-connections and
         * blocking-pool.pool-size may not exceed it. The strategy the template starts with is not checked.
         */
        private int connectionLimit = 64; // StrategySwitcher.DEFAULT_CONNECTION_LIMIT, as a literal for the metadata's default

        /** Fewer calls in a window make it too thin to judge. */
        private long minCallsPerWindow = 200;

        /** Most automatic switches in any hour. */
        private int maxSwitchesPerHour = 12;

        /**
         * How far back the template's last windows are kept in memory (a bounded ring of history/window windows, at most
         * 86400), for the Actuator endpoint's history and the live page, so that a page opened after an incident shows it.
         */
        private Duration history = Duration.ofMinutes(5);

        /** When the switcher moves few callers to blocking POOLED connections (Redis with pooled-driver jedis only). */
        @NestedConfigurationProperty
        private final BlockingPool blockingPool = new BlockingPool();

        public BlockingPool getBlockingPool() {
            return this.blockingPool;
        }

        public AdaptiveMode getMode() {
            return this.mode;
        }

        public void setMode(AdaptiveMode mode) {
            this.mode = mode;
        }

        public StrategyType getInitial() {
            return this.initial;
        }

        public void setInitial(StrategyType initial) {
            this.initial = initial;
        }

        public Duration getWindow() {
            return this.window;
        }

        public void setWindow(Duration window) {
            this.window = window;
        }

        public Duration getDwell() {
            return this.dwell;
        }

        public void setDwell(Duration dwell) {
            this.dwell = dwell;
        }

        public Duration getTrial() {
            return this.trial;
        }

        public void setTrial(Duration trial) {
            this.trial = trial;
        }

        public Integer getMaxConnections() {
            return this.maxConnections;
        }

        public void setMaxConnections(Integer maxConnections) {
            this.maxConnections = maxConnections;
        }

        public int getConnectionLimit() {
            return this.connectionLimit;
        }

        public void setConnectionLimit(int connectionLimit) {
            this.connectionLimit = connectionLimit;
        }

        public long getMinCallsPerWindow() {
            return this.minCallsPerWindow;
        }

        public void setMinCallsPerWindow(long minCallsPerWindow) {
            this.minCallsPerWindow = minCallsPerWindow;
        }

        public int getMaxSwitchesPerHour() {
            return this.maxSwitchesPerHour;
        }

        public void setMaxSwitchesPerHour(int maxSwitchesPerHour) {
            this.maxSwitchesPerHour = maxSwitchesPerHour;
        }

        public Duration getHistory() {
            return this.history;
        }

        public void setHistory(Duration history) {
            this.history = history;
        }
    }

    /** When the adaptive switcher moves callers to blocking POOLED connections: few callers, or large values, on a short round trip. */
    public static class BlockingPool {

        /** Whether the switcher may move callers to blocking POOLED connections when the template has them. */
        private boolean enabled = true;

        /** Calls in flight at or below which the blocking pool is proposed; at most 60% of pool-size. */
        private double maxConcurrency = 10;

        /** Mean call latency at or below which the round trip counts as short enough. */
        private Duration maxMeanLatency = Duration.ofMillis(1);

        /** Size of the blocking pool proposed. */
        private int poolSize = 20;

        /** How long a caller may wait for a connection of the blocking pool. */
        private Duration maxWait = Duration.ofSeconds(1);

        /**
         * Mean value size per call (values written or found) from which values count as large: large values on a short round
         * trip move to the blocking pool at any number of callers, and stay there while they are at least half this size. Unset
         * by default (the rule is off): with the template's own timeout timer, shared connections measured level with a
         * blocking pool at 100 KiB; try 16KB where a blocking pool measures ahead.
         */
        private DataSize largeValueSize;

        /** Longest round trip (the shortest call of a window) at which large values move to the blocking pool. */
        private Duration maxRoundTrip = Duration.ofNanos(500_000);

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public double getMaxConcurrency() {
            return this.maxConcurrency;
        }

        public void setMaxConcurrency(double maxConcurrency) {
            this.maxConcurrency = maxConcurrency;
        }

        public Duration getMaxMeanLatency() {
            return this.maxMeanLatency;
        }

        public void setMaxMeanLatency(Duration maxMeanLatency) {
            this.maxMeanLatency = maxMeanLatency;
        }

        public int getPoolSize() {
            return this.poolSize;
        }

        public void setPoolSize(int poolSize) {
            this.poolSize = poolSize;
        }

        public Duration getMaxWait() {
            return this.maxWait;
        }

        public void setMaxWait(Duration maxWait) {
            this.maxWait = maxWait;
        }

        public DataSize getLargeValueSize() {
            return this.largeValueSize;
        }

        public void setLargeValueSize(DataSize largeValueSize) {
            this.largeValueSize = largeValueSize;
        }

        public Duration getMaxRoundTrip() {
            return this.maxRoundTrip;
        }

        public void setMaxRoundTrip(Duration maxRoundTrip) {
            this.maxRoundTrip = maxRoundTrip;
        }
    }

    /** TLS to Redis. */
    public static class Ssl {

        /** Whether to connect with TLS; on when a bundle is named or the URL is rediss://. */
        private Boolean enabled;

        /** Name of the SSL bundle (spring.ssl.bundle.*) whose trust material, and key material for client certificates, to use; without one the JVM's default trust store is used. */
        private String bundle;

        public Boolean getEnabled() {
            return this.enabled;
        }

        public void setEnabled(Boolean enabled) {
            this.enabled = enabled;
        }

        public String getBundle() {
            return this.bundle;
        }

        public void setBundle(String bundle) {
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
        private String readFrom;

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

        public String getReadFrom() {
            return this.readFrom;
        }

        public void setReadFrom(String readFrom) {
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

    /** Protection of a template's callers, on Resilience4j when it is on the classpath. */
    public static class Resilience {

        /**
         * What callers see when a call fails because of the cache: fail-fast throws; degrade answers reads with a miss and
         * skips writes, counting both (cas, incr and decr still throw). Also what a server that cannot be reached at startup
         * does: fail-fast fails the application's start; degrade starts the template not connected (calls degrade at once,
         * health is DOWN with the reason and the next attempt) and connects in the background, retrying from 100 ms up to
         * every 5 s, so calls reach the server once it answers, with no restart.
         */
        private CacheFailureMode onFailure = CacheFailureMode.FAIL_FAST;

        /** Circuit breaker that every call asks. */
        @NestedConfigurationProperty
        private final CircuitBreaker circuitBreaker = new CircuitBreaker();

        /** Retry of reads (get, getAll, gets); writes are never retried. */
        @NestedConfigurationProperty
        private final Retry retry = new Retry();

        /** Semaphore bulkhead capping concurrent calls. */
        @NestedConfigurationProperty
        private final Bulkhead bulkhead = new Bulkhead();

        public CacheFailureMode getOnFailure() {
            return this.onFailure;
        }

        public void setOnFailure(CacheFailureMode onFailure) {
            this.onFailure = onFailure;
        }

        public CircuitBreaker getCircuitBreaker() {
            return this.circuitBreaker;
        }

        public Retry getRetry() {
            return this.retry;
        }

        public Bulkhead getBulkhead() {
            return this.bulkhead;
        }
    }

    /** A template's circuit breaker; it counts only timeouts waiting for the server and lost connections. */
    public static class CircuitBreaker {

        /** Whether calls pass through a circuit breaker. */
        private boolean enabled = true;

        /** Name of the breaker; when the application has a Resilience4j CircuitBreakerRegistry holding one of that name, that one is used as configured there. Default: adaptive-cache-<template>. */
        private String name;

        /** Failure rate, in percent of the calls in the sliding window, at which the breaker opens. */
        private float failureRateThreshold = 50;

        /** Rate of slow calls, in percent, at which the breaker opens. */
        private float slowCallRateThreshold = 50;

        /** Duration above which a call counts as slow. */
        private Duration slowCallDurationThreshold = Duration.ofMillis(500);

        /** Number of most recent calls the rates are computed over. */
        private int slidingWindowSize = 100;

        /** Calls needed in the window before the rates count. */
        private int minimumNumberOfCalls = 20;

        /** How long the breaker stays open (failing calls at once) before letting trial calls through. */
        private Duration waitDurationInOpenState = Duration.ofSeconds(5);

        /** Trial calls let through when half open. */
        private int permittedNumberOfCallsInHalfOpenState = 5;

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getName() {
            return this.name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public float getFailureRateThreshold() {
            return this.failureRateThreshold;
        }

        public void setFailureRateThreshold(float failureRateThreshold) {
            this.failureRateThreshold = failureRateThreshold;
        }

        public float getSlowCallRateThreshold() {
            return this.slowCallRateThreshold;
        }

        public void setSlowCallRateThreshold(float slowCallRateThreshold) {
            this.slowCallRateThreshold = slowCallRateThreshold;
        }

        public Duration getSlowCallDurationThreshold() {
            return this.slowCallDurationThreshold;
        }

        public void setSlowCallDurationThreshold(Duration slowCallDurationThreshold) {
            this.slowCallDurationThreshold = slowCallDurationThreshold;
        }

        public int getSlidingWindowSize() {
            return this.slidingWindowSize;
        }

        public void setSlidingWindowSize(int slidingWindowSize) {
            this.slidingWindowSize = slidingWindowSize;
        }

        public int getMinimumNumberOfCalls() {
            return this.minimumNumberOfCalls;
        }

        public void setMinimumNumberOfCalls(int minimumNumberOfCalls) {
            this.minimumNumberOfCalls = minimumNumberOfCalls;
        }

        public Duration getWaitDurationInOpenState() {
            return this.waitDurationInOpenState;
        }

        public void setWaitDurationInOpenState(Duration waitDurationInOpenState) {
            this.waitDurationInOpenState = waitDurationInOpenState;
        }

        public int getPermittedNumberOfCallsInHalfOpenState() {
            return this.permittedNumberOfCallsInHalfOpenState;
        }

        public void setPermittedNumberOfCallsInHalfOpenState(int permittedNumberOfCallsInHalfOpenState) {
            this.permittedNumberOfCallsInHalfOpenState = permittedNumberOfCallsInHalfOpenState;
        }
    }

    /** Retry of a template's reads. */
    public static class Retry {

        /** Whether failed reads are tried again. */
        private boolean enabled = false;

        /** Name of the retry; one of that name in the application's RetryRegistry is used as configured there. Default: adaptive-cache-<template>. */
        private String name;

        /** Attempts in all, the first included. */
        private int maxAttempts = 2;

        /** Wait between attempts. */
        private Duration waitDuration = Duration.ofMillis(50);

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getName() {
            return this.name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public int getMaxAttempts() {
            return this.maxAttempts;
        }

        public void setMaxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public Duration getWaitDuration() {
            return this.waitDuration;
        }

        public void setWaitDuration(Duration waitDuration) {
            this.waitDuration = waitDuration;
        }
    }

    /** A semaphore bulkhead over a template's calls. */
    public static class Bulkhead {

        /** Whether concurrent calls are capped. */
        private boolean enabled = false;

        /** Name of the bulkhead; one of that name in the application's BulkheadRegistry is used as configured there. Default: adaptive-cache-<template>. */
        private String name;

        /** Calls allowed at once. */
        private int maxConcurrentCalls = 256;

        /** How long a caller over the cap waits for a permit before it is refused; 0 refuses at once. */
        private Duration maxWaitDuration = Duration.ZERO;

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getName() {
            return this.name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public int getMaxConcurrentCalls() {
            return this.maxConcurrentCalls;
        }

        public void setMaxConcurrentCalls(int maxConcurrentCalls) {
            this.maxConcurrentCalls = maxConcurrentCalls;
        }

        public Duration getMaxWaitDuration() {
            return this.maxWaitDuration;
        }

        public void setMaxWaitDuration(Duration maxWaitDuration) {
            this.maxWaitDuration = maxWaitDuration;
        }
    }

    /** What every backend's template has: a switch, the strategy and the drain timeout of a strategy switch. */
    public abstract static class TemplateSettings {

        /** Whether to create this backend's cache template. */
        private boolean enabled = true;

        /** Longest wait for a replaced strategy's calls to finish before its connections close; keep it above the command timeout. */
        private Duration drainTimeout = Duration.ofSeconds(3);

        /** Connection strategy. */
        @NestedConfigurationProperty
        private final Strategy strategy = new Strategy();

        /** Adaptive switcher. */
        @NestedConfigurationProperty
        private final Adaptive adaptive = new Adaptive();

        /** Protection of callers: circuit breaker, retry of reads, bulkhead, and what a failure looks like. */
        @NestedConfigurationProperty
        private final Resilience resilience = new Resilience();

        public Adaptive getAdaptive() {
            return this.adaptive;
        }

        public Resilience getResilience() {
            return this.resilience;
        }

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getDrainTimeout() {
            return this.drainTimeout;
        }

        public void setDrainTimeout(Duration drainTimeout) {
            this.drainTimeout = drainTimeout;
        }

        public Strategy getStrategy() {
            return this.strategy;
        }
    }

    /** Redis backend, over lettuce-core. */
    public static class Redis extends TemplateSettings {

        /** Redis URL, such as redis://user:password@example.com:6379/0 or rediss:// for TLS. Overrides host, port, username, password, database and ssl. */
        private String url;

        /** Redis server host. Defaults to localhost, or to spring.data.redis.* when no adaptive-cache.redis connection setting is given. */
        private String host;

        /** Redis server port. Defaults to 6379. */
        private Integer port;

        /** Login username of the Redis server. */
        private String username;

        /** Login password of the Redis server. */
        private String password;

        /** Database index. Defaults to 0. */
        private Integer database;

        /** TLS. */
        @NestedConfigurationProperty
        private final Ssl ssl = new Ssl();

        /** Client name set on each connection with CLIENT SETNAME. */
        private String clientName;

        /** Network transport of Lettuce's event loops: auto takes io_uring, then epoll, then nio, by what the machine supports. Lettuce has one transport per JVM, chosen when its first client starts. */
        private io.adaptivecache.redis.RedisTransport transport = io.adaptivecache.redis.RedisTransport.AUTO;

        /**
         * Driver of POOLED connections: jedis (blocking connections doing the I/O on the caller's thread, about twice
         * Lettuce's throughput for few callers on a short round trip; synchronous calls only, ...Async calls keep to
         * a shared Lettuce connection) or lettuce. Defaults to jedis when redis.clients:jedis is on the class path
         * (the starter brings it) and the template is not a Redis Cluster's, lettuce otherwise. SINGLE and MULTI
         * always run on Lettuce.
         */
        private io.adaptivecache.redis.RedisDriver pooledDriver;

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

        /** Whether any connection setting of adaptive-cache.redis is given (otherwise spring.data.redis.* is used when present). */
        boolean hasConnectionSettings() {
            return this.url != null || this.host != null || this.port != null || this.username != null
                    || this.password != null || this.database != null || this.ssl.getEnabled() != null || this.ssl.getBundle() != null
                    || this.clientName != null || !this.cluster.getNodes().isEmpty();
        }

        public String getUrl() {
            return this.url;
        }

        public void setUrl(String url) {
            this.url = url;
        }

        public String getHost() {
            return this.host;
        }

        public void setHost(String host) {
            this.host = host;
        }

        public Integer getPort() {
            return this.port;
        }

        public void setPort(Integer port) {
            this.port = port;
        }

        public String getUsername() {
            return this.username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return this.password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public Integer getDatabase() {
            return this.database;
        }

        public void setDatabase(Integer database) {
            this.database = database;
        }

        public Ssl getSsl() {
            return this.ssl;
        }

        public Cluster getCluster() {
            return this.cluster;
        }

        public io.adaptivecache.redis.RedisDriver getPooledDriver() {
            return this.pooledDriver;
        }

        public void setPooledDriver(io.adaptivecache.redis.RedisDriver pooledDriver) {
            this.pooledDriver = pooledDriver;
        }

        public io.adaptivecache.redis.RedisTransport getTransport() {
            return this.transport;
        }

        public void setTransport(io.adaptivecache.redis.RedisTransport transport) {
            this.transport = transport;
        }

        public String getClientName() {
            return this.clientName;
        }

        public void setClientName(String clientName) {
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
    }

    /** Memcached backend, over spymemcached or XMemcached; one connection of a strategy is one client of the driver. */
    public static class Memcached extends TemplateSettings {

        /** Client library of every strategy: spymemcached, or xmemcached (faster here at 8 or more callers on a short round trip; async calls complete before they return; no SASL). Needs its jar: the starter brings spymemcached; for xmemcached add com.googlecode.xmemcached:xmemcached. */
        private io.adaptivecache.memcached.MemcachedDriver driver = io.adaptivecache.memcached.MemcachedDriver.SPYMEMCACHED;

        /** Servers as host:port or host:port:weight; keys are spread by ketama consistent hashing, in proportion to the weights. */
        private List<String> servers = new ArrayList<>(List.of("localhost:11211"));

        /** Wire protocol. Binary is faster here and needed for SASL; over text, any server error reply makes spymemcached reconnect. */
        private MemcachedProtocol protocol = MemcachedProtocol.BINARY;

        /** SASL username (binary protocol only). */
        private String username;

        /** SASL password. */
        private String password;

        /** Operation timeout. */
        private Duration operationTimeout = Duration.ofSeconds(1);

        /** Connection timeout of a new client. */
        private Duration connectTimeout = Duration.ofSeconds(2);

        /** Longest pause between reconnection attempts to a server that went away, in whole seconds. */
        private Duration maxReconnectDelay = Duration.ofSeconds(2);

        /** Maximum operations waiting per client; more fail at once instead of blocking the caller. spymemcached only: on XMemcached each caller waits for its own reply. */
        private int operationQueueSize = 8192;

        /** The servers' item size limit (memcached -I); values are limited to this less room for the item header. */
        private DataSize itemSizeMax = DataSize.ofMegabytes(1);

        public List<String> getServers() {
            return this.servers;
        }

        public void setServers(List<String> servers) {
            this.servers = servers;
        }

        public MemcachedProtocol getProtocol() {
            return this.protocol;
        }

        public void setProtocol(MemcachedProtocol protocol) {
            this.protocol = protocol;
        }

        public String getUsername() {
            return this.username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return this.password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public Duration getOperationTimeout() {
            return this.operationTimeout;
        }

        public void setOperationTimeout(Duration operationTimeout) {
            this.operationTimeout = operationTimeout;
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

        public io.adaptivecache.memcached.MemcachedDriver getDriver() {
            return this.driver;
        }

        public void setDriver(io.adaptivecache.memcached.MemcachedDriver driver) {
            this.driver = driver;
        }

        public int getOperationQueueSize() {
            return this.operationQueueSize;
        }

        public void setOperationQueueSize(int operationQueueSize) {
            this.operationQueueSize = operationQueueSize;
        }

        public DataSize getItemSizeMax() {
            return this.itemSizeMax;
        }

        public void setItemSizeMax(DataSize itemSizeMax) {
            this.itemSizeMax = itemSizeMax;
        }
    }

    /** Which backend a Spring cache stores its entries in. */
    public enum Backend {

        /** The Redis cache template. */
        REDIS,

        /** The memcached cache template. */
        MEMCACHED
    }

    /** How cached values are turned into bytes. */
    public enum Serializer {

        /** JSON through Jackson, with the value's class recorded beside it. */
        JSON,

        /** Java serialization; values must be Serializable. */
        JDK
    }

    /** What a cache operation does when the backend fails. */
    public enum OnError {

        /** Reads are misses and writes are skipped; failures are counted and logged once per burst. */
        DEGRADE,

        /** The exception reaches the caller. */
        RETHROW
    }

    /** Spring Cache ({@code @Cacheable} and friends) over the cache templates. */
    public static class Cache {

        /** Whether to provide a CacheManager over the cache templates when caching is enabled. */
        private boolean enabled = true;

        /** Backend of caches not listed under backends. Defaults to redis when its template exists, else memcached. */
        private Backend backend;

        /** Backend per cache name, overriding the default backend. */
        private Map<String, Backend> backends = new LinkedHashMap<>();

        /** Time to live of entries of caches not listed under ttl; zero means no expiry. */
        private Duration defaultTtl = Duration.ofMinutes(10);

        /**
         * Time to live per cache name. memcached keeps whole seconds on a once-a-second clock, so
         * there an entry with a TTL of n seconds lives n - 1 to n seconds.
         */
        private Map<String, Duration> ttl = new LinkedHashMap<>();

        /** Prefix of every key, to share a server between applications. */
        private String keyPrefix = "";

        /** How values are serialized. */
        private Serializer serializer = Serializer.JSON;

        /** Whether to cache null values. */
        private boolean allowNullValues = true;

        /** What a cache operation does when the backend fails. */
        private OnError onError = OnError.DEGRADE;

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Backend getBackend() {
            return this.backend;
        }

        public void setBackend(Backend backend) {
            this.backend = backend;
        }

        public Map<String, Backend> getBackends() {
            return this.backends;
        }

        public void setBackends(Map<String, Backend> backends) {
            this.backends = backends;
        }

        public Duration getDefaultTtl() {
            return this.defaultTtl;
        }

        public void setDefaultTtl(Duration defaultTtl) {
            this.defaultTtl = defaultTtl;
        }

        public Map<String, Duration> getTtl() {
            return this.ttl;
        }

        public void setTtl(Map<String, Duration> ttl) {
            this.ttl = ttl;
        }

        public String getKeyPrefix() {
            return this.keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public Serializer getSerializer() {
            return this.serializer;
        }

        public void setSerializer(Serializer serializer) {
            this.serializer = serializer;
        }

        public boolean isAllowNullValues() {
            return this.allowNullValues;
        }

        public void setAllowNullValues(boolean allowNullValues) {
            this.allowNullValues = allowNullValues;
        }

        public OnError getOnError() {
            return this.onError;
        }

        public void setOnError(OnError onError) {
            this.onError = onError;
        }
    }
}
