package io.adaptivecache.autoconfigure;

import java.time.Duration;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategyType;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * What every template's properties section has: a switch, the connection strategy, the adaptive
 * switcher, the drain timeout of a strategy switch and the protection of callers. The base of
 * {@link AdaptiveCacheRedisProperties} ({@code adaptive-cache.redis}) and
 * {@link AdaptiveCacheMemcachedProperties} ({@code adaptive-cache.memcached}); each names the
 * template it configures.
 */
public abstract class AdaptiveCacheTemplateProperties implements InitializingBean {

    /**
     * The name of the template these properties configure; the section's name under {@code adaptive-cache}.
     * @return the name, such as {@code redis}
     */
    public abstract String templateName();

    /**
     * The prefix of these properties, for messages that name one.
     * @return the prefix, such as {@code adaptive-cache.redis}
     */
    public String prefix() {
        return "adaptive-cache." + templateName();
    }

    /**
     * This section resolved into the settings the template's builder and its switcher share, once:
     * on first use, after binding and checking, and kept (the section is not changed once bound).
     * @return the settings
     */
    TemplateSettings settings() {
        TemplateSettings resolved = this.settings;
        if (resolved == null) {
            // A race resolves twice to equal values; either may be kept.
            resolved = TemplateSettings.of(this);
            this.settings = resolved;
        }
        return resolved;
    }

    // Not a property: no accessor, so neither the binder nor the metadata sees it.
    private volatile @Nullable TemplateSettings settings;

    /**
     * Checks the bound values once binding is done, so that a bad one fails startup naming the
     * property before any bean uses it; a disabled backend's are not checked. Rules that depend
     * on more than the values (a client library on the classpath, the machine's transports, an
     * SSL bundle, the blocking pool of a template with blocking connections) are checked where
     * they apply.
     * @throws InvalidAdaptiveCachePropertyException naming the first property at fault
     */
    @Override
    public void afterPropertiesSet() {
        if (this.enabled) {
            validate();
        }
    }

    /**
     * Checks this section's values.
     * @throws InvalidAdaptiveCachePropertyException naming the first property at fault
     */
    void validate() {
        String prefix = prefix();
        PropertyRules.positive(prefix + ".drain-timeout", this.drainTimeout);
        this.strategy.validate(prefix + ".strategy");
        this.adaptive.validate(prefix + ".adaptive");
        this.resilience.validate(prefix + ".resilience");
        validateBackend(prefix);
    }

    /**
     * Checks the values of this backend's own settings.
     * @param prefix this section's prefix
     */
    abstract void validateBackend(String prefix);

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

        void validate(String prefix) {
            PropertyRules.present(prefix + ".type", this.type, "single, multi, pooled or adaptive");
            if (this.multi.getConnections() != null) {
                PropertyRules.atLeast(prefix + ".multi.connections", this.multi.getConnections(), 1,
                        "(leave it unset for one connection per processor)");
            }
            PropertyRules.present(prefix + ".multi.selector", this.multi.getSelector(), "round-robin or least-in-flight");
            PropertyRules.atLeast(prefix + ".pool.max-total", this.pool.getMaxTotal(), 1);
            PropertyRules.between(prefix + ".pool.max-idle", this.pool.getMaxIdle(), 0, this.pool.getMaxTotal(),
                    "between 0 and max-total (" + this.pool.getMaxTotal() + ")");
            PropertyRules.between(prefix + ".pool.min-idle", this.pool.getMinIdle(), 0, this.pool.getMaxIdle(),
                    "between 0 and max-idle (" + this.pool.getMaxIdle() + ")");
            PropertyRules.positive(prefix + ".pool.max-wait", this.pool.getMaxWait());
        }
    }

    /** Settings of the multi strategy. */
    public static class Multi {

        /** Number of shared connections. Defaults to the number of available processors. */
        private @Nullable Integer connections;

        /** How each call picks one of the shared connections. */
        private SelectorType selector = SelectorType.ROUND_ROBIN;

        public @Nullable Integer getConnections() {
            return this.connections;
        }

        public void setConnections(@Nullable Integer connections) {
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
        private @Nullable Integer maxConnections;

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

        public @Nullable Integer getMaxConnections() {
            return this.maxConnections;
        }

        public void setMaxConnections(@Nullable Integer maxConnections) {
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

        /** Checks the switcher's settings; the blocking pool's are checked where a template has blocking connections. */
        void validate(String prefix) {
            PropertyRules.present(prefix + ".mode", this.mode, "auto or advise");
            PropertyRules.present(prefix + ".initial", this.initial, "single, multi or pooled");
            PropertyRules.positive(prefix + ".window", this.window);
            PropertyRules.positive(prefix + ".dwell", this.dwell);
            PropertyRules.positive(prefix + ".trial", this.trial);
            PropertyRules.atLeast(prefix + ".connection-limit", this.connectionLimit, 1);
            if (this.maxConnections != null) {
                PropertyRules.atLeast(prefix + ".max-connections", this.maxConnections, 1, "(leave it unset for one per processor)");
                if (this.maxConnections > this.connectionLimit) {
                    throw new InvalidAdaptiveCachePropertyException(prefix + ".max-connections", this.maxConnections,
                            "it must be at most " + prefix + ".connection-limit (" + this.connectionLimit + ")");
                }
            }
            PropertyRules.atLeast(prefix + ".min-calls-per-window", this.minCallsPerWindow, 0);
            PropertyRules.atLeast(prefix + ".max-switches-per-hour", this.maxSwitchesPerHour, 1);
            PropertyRules.positive(prefix + ".history", this.history);
            try {
                StrategySwitcher.historyWindows(this.history, this.window);
            }
            catch (IllegalArgumentException ex) {
                throw new InvalidAdaptiveCachePropertyException(prefix + ".history", this.history, "it must cover at most "
                        + StrategySwitcher.MAX_HISTORY_WINDOWS + " windows of " + prefix + ".window (" + this.window + ")");
            }
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
        private @Nullable DataSize largeValueSize;

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

        public @Nullable DataSize getLargeValueSize() {
            return this.largeValueSize;
        }

        public void setLargeValueSize(@Nullable DataSize largeValueSize) {
            this.largeValueSize = largeValueSize;
        }

        public Duration getMaxRoundTrip() {
            return this.maxRoundTrip;
        }

        public void setMaxRoundTrip(Duration maxRoundTrip) {
            this.maxRoundTrip = maxRoundTrip;
        }

        /**
         * Checks these settings; only for a template whose POOLED connections block, the only
         * one that reads them.
         */
        void validate(String prefix) {
            PropertyRules.positive(prefix + ".max-mean-latency", this.maxMeanLatency);
            PropertyRules.positive(prefix + ".max-wait", this.maxWait);
            PropertyRules.atLeast(prefix + ".pool-size", this.poolSize, 1);
            PropertyRules.positive(prefix + ".max-round-trip", this.maxRoundTrip);
            if (this.largeValueSize != null && this.largeValueSize.toBytes() < 2) {
                throw new InvalidAdaptiveCachePropertyException(prefix + ".large-value-size", this.largeValueSize,
                        "it must be at least 2 bytes (values stay large down to half of it), or unset to leave the rule off");
            }
            // The pool is left as saturated above 90% of its size: a proposal must stay clear of that.
            if (!(this.maxConcurrency > 0) || this.maxConcurrency > this.poolSize * 0.6) {
                throw new InvalidAdaptiveCachePropertyException(prefix + ".max-concurrency", this.maxConcurrency,
                        "it must be positive and at most 60% of pool-size (" + this.poolSize
                                + "), so that the pool it proposes is not saturated at once");
            }
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

        /** Checks the guards that are enabled. */
        void validate(String prefix) {
            PropertyRules.present(prefix + ".on-failure", this.onFailure, "fail-fast or degrade");
            if (this.circuitBreaker.isEnabled()) {
                this.circuitBreaker.validate(prefix + ".circuit-breaker");
            }
            if (this.retry.isEnabled()) {
                PropertyRules.atLeast(prefix + ".retry.max-attempts", this.retry.getMaxAttempts(), 1);
                PropertyRules.positive(prefix + ".retry.wait-duration", this.retry.getWaitDuration());
            }
            if (this.bulkhead.isEnabled()) {
                PropertyRules.atLeast(prefix + ".bulkhead.max-concurrent-calls", this.bulkhead.getMaxConcurrentCalls(), 1);
                PropertyRules.notNegative(prefix + ".bulkhead.max-wait-duration", this.bulkhead.getMaxWaitDuration(), "refuse at once");
            }
        }
    }

    /** A template's circuit breaker; it counts only timeouts waiting for the server and lost connections. */
    public static class CircuitBreaker {

        /** Whether calls pass through a circuit breaker. */
        private boolean enabled = true;

        /** Name of the breaker; when the application has a Resilience4j CircuitBreakerRegistry holding one of that name, that one is used as configured there. Default: adaptive-cache-<template>. */
        private @Nullable String name;

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

        public @Nullable String getName() {
            return this.name;
        }

        public void setName(@Nullable String name) {
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

        void validate(String prefix) {
            PropertyRules.percentage(prefix + ".failure-rate-threshold", this.failureRateThreshold);
            PropertyRules.percentage(prefix + ".slow-call-rate-threshold", this.slowCallRateThreshold);
            PropertyRules.positive(prefix + ".slow-call-duration-threshold", this.slowCallDurationThreshold);
            PropertyRules.atLeast(prefix + ".sliding-window-size", this.slidingWindowSize, 1);
            PropertyRules.atLeast(prefix + ".minimum-number-of-calls", this.minimumNumberOfCalls, 1);
            PropertyRules.positive(prefix + ".wait-duration-in-open-state", this.waitDurationInOpenState);
            PropertyRules.atLeast(prefix + ".permitted-number-of-calls-in-half-open-state", this.permittedNumberOfCallsInHalfOpenState, 1);
        }
    }

    /** Retry of a template's reads. */
    public static class Retry {

        /** Whether failed reads are tried again. */
        private boolean enabled = false;

        /** Name of the retry; one of that name in the application's RetryRegistry is used as configured there. Default: adaptive-cache-<template>. */
        private @Nullable String name;

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

        public @Nullable String getName() {
            return this.name;
        }

        public void setName(@Nullable String name) {
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
        private @Nullable String name;

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

        public @Nullable String getName() {
            return this.name;
        }

        public void setName(@Nullable String name) {
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
}
