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
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * What every template's properties section has: a switch, the login and reconnection to its
 * servers, the connection strategy, the adaptive switcher, the drain timeout of a strategy switch
 * and the protection of callers. The base of
 * {@link AdaptiveCacheRedisProperties} ({@code adaptive-cache.redis}) and
 * {@link AdaptiveCacheMemcachedProperties} ({@code adaptive-cache.memcached}); each names the
 * template it configures.
 */
public abstract class AdaptiveCacheTemplateProperties implements InitializingBean {

    // Not a property: no accessor in the getter's form, so neither the binder nor the metadata sees it.
    private final String templateName;

    /**
     * Properties of one template, at their defaults until bound.
     * @param templateName the template's name, which is also its section's under {@code adaptive-cache}
     */
    protected AdaptiveCacheTemplateProperties(String templateName) {
        this.templateName = templateName;
    }

    /**
     * The name of the template these properties configure; the section's name under {@code adaptive-cache}.
     * @return the name, such as {@code redis}
     */
    public String templateName() {
        return this.templateName;
    }

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
        PropertyRules.positive(prefix + ".connect-timeout", this.connectTimeout);
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

    /** How long opening a connection to a server may take (for memcached, a new client's connections). */
    private Duration connectTimeout = Duration.ofSeconds(2);

    // Both backends log in and reconnect; what each does with these (Redis AUTH or memcached SASL, how the delay grows)
    // is its own, so each one's description is in META-INF/additional-spring-configuration-metadata.json, which the
    // configuration processor lets override these.

    /** Login username. */
    private @Nullable String username;

    /** Login password. */
    private @Nullable String password;

    /** Longest wait between reconnect attempts after a connection is lost. */
    private Duration maxReconnectDelay = Duration.ofSeconds(2);

    // The sections are values bound through their constructors; a section none of whose properties is set is not bound,
    // so each starts as its defaults, bound from nothing (the @DefaultValue annotations are their one statement).

    /** Connection strategy. */
    @NestedConfigurationProperty
    private Strategy strategy = Strategy.DEFAULTS;

    /** Adaptive switcher. */
    @NestedConfigurationProperty
    private Adaptive adaptive = Adaptive.DEFAULTS;

    /** Protection of callers: circuit breaker, retry of reads, bulkhead, and what a failure looks like. */
    @NestedConfigurationProperty
    private Resilience resilience = Resilience.DEFAULTS;

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

    public Duration getConnectTimeout() {
        return this.connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
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

    public Duration getMaxReconnectDelay() {
        return this.maxReconnectDelay;
    }

    public void setMaxReconnectDelay(Duration maxReconnectDelay) {
        this.maxReconnectDelay = maxReconnectDelay;
    }

    public Strategy getStrategy() {
        return this.strategy;
    }

    public void setStrategy(Strategy strategy) {
        this.strategy = strategy;
    }

    public Adaptive getAdaptive() {
        return this.adaptive;
    }

    public void setAdaptive(Adaptive adaptive) {
        this.adaptive = adaptive;
    }

    public Resilience getResilience() {
        return this.resilience;
    }

    public void setResilience(Resilience resilience) {
        this.resilience = resilience;
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

    /**
     * How a template shares its connections among callers.
     * @param type Connection strategy: adaptive (the default: starts on adaptive.initial and is switched at runtime from
     *        measurements), or one pinned: single (one shared connection), multi (N shared connections) or pooled.
     * @param multi Settings of the multi strategy.
     * @param pool Settings of the pooled strategy.
     */
    public record Strategy(@DefaultValue("adaptive") StrategyChoice type, @DefaultValue Multi multi, @DefaultValue Pool pool) {

        /** The defaults: what a section that sets none of these properties has. */
        static final Strategy DEFAULTS = PropertyDefaults.of(Strategy.class);

        void validate(String prefix) {
            PropertyRules.present(prefix + ".type", this.type, "single, multi, pooled or adaptive");
            if (this.multi.connections() != null) {
                PropertyRules.atLeast(prefix + ".multi.connections", this.multi.connections(), 1,
                        "(leave it unset for one connection per processor)");
            }
            PropertyRules.present(prefix + ".multi.selector", this.multi.selector(), "round-robin or least-in-flight");
            PropertyRules.atLeast(prefix + ".pool.max-total", this.pool.maxTotal(), 1);
            PropertyRules.between(prefix + ".pool.max-idle", this.pool.maxIdle(), 0, this.pool.maxTotal(),
                    "between 0 and max-total (" + this.pool.maxTotal() + ")");
            PropertyRules.between(prefix + ".pool.min-idle", this.pool.minIdle(), 0, this.pool.maxIdle(),
                    "between 0 and max-idle (" + this.pool.maxIdle() + ")");
            PropertyRules.positive(prefix + ".pool.max-wait", this.pool.maxWait());
        }
    }

    /**
     * Settings of the multi strategy.
     * @param connections Number of shared connections. Defaults to the number of available processors.
     * @param selector How each call picks one of the shared connections.
     */
    public record Multi(@Nullable Integer connections, @DefaultValue("round-robin") SelectorType selector) {
    }

    /**
     * Settings of the pooled strategy.
     * @param maxTotal Maximum number of connections open at once; callers beyond it wait.
     * @param maxIdle Maximum number of idle connections kept open.
     * @param minIdle Number of idle connections opened up front and kept open.
     * @param maxWait Maximum time a caller waits for a free connection before failing with a timeout.
     */
    public record Pool(@DefaultValue("8") int maxTotal, @DefaultValue("8") int maxIdle, @DefaultValue("0") int minIdle,
            @DefaultValue("200ms") Duration maxWait) {
    }

    /**
     * The adaptive switcher of one template.
     * @param mode What the switcher does with its decisions when the strategy type is adaptive: auto acts, advise only
     *        reports.
     * @param initial Strategy to start with when the strategy type is adaptive; shaped by the multi and pool settings.
     * @param window Length of one measurement window; the switcher decides once per window.
     * @param dwell Minimum time between two automatic changes made for a gain (doubled after each rollback and after
     *        leaving a pool), and how long the load must keep calling for the same change, without a break, before it is
     *        made: a load that changes faster than this causes no switch. A pool whose callers queue for a connection is
     *        left without waiting for it, once three windows in a row call for it.
     * @param trial How long a new strategy is compared against the one it replaced before it is kept or rolled back.
     * @param maxConnections Most connections the switcher grows a multi strategy to. Defaults to the number of available
     *        processors, or connection-limit if that is lower; at most connection-limit.
     * @param connectionLimit Most connections (N of multi, max-total of pooled) that any strategy chosen at runtime may
     *        have: an Actuator pin or trial asking for more is refused (400) before anything is opened, and
     *        max-connections and blocking-pool.pool-size may not exceed it. The strategy the template starts with is not
     *        checked.
     * @param minCallsPerWindow Fewer calls in a window make it too thin to judge.
     * @param maxSwitchesPerHour Most automatic switches in any hour, leaving a pool whose callers queue included.
     * @param history How far back the template's last windows are kept in memory (a bounded ring of history/window
     *        windows, at most 86400), for the Actuator endpoint's history and the live page, so that a page opened after
     *        an incident shows it.
     * @param blockingPool When the switcher moves few callers to blocking POOLED connections (Redis with pooled-driver
     *        jedis only).
     */
    public record Adaptive(@DefaultValue("auto") AdaptiveMode mode, @DefaultValue("multi") StrategyType initial,
            @DefaultValue("1s") Duration window, @DefaultValue("60s") Duration dwell, @DefaultValue("30s") Duration trial,
            @Nullable Integer maxConnections,
            // StrategySwitcher.DEFAULT_CONNECTION_LIMIT, as a literal for the metadata's default
            @DefaultValue("64") int connectionLimit, @DefaultValue("200") long minCallsPerWindow,
            @DefaultValue("12") int maxSwitchesPerHour, @DefaultValue("5m") Duration history,
            @DefaultValue @NestedConfigurationProperty BlockingPool blockingPool) {

        /** The defaults: what a section that sets none of these properties has. */
        static final Adaptive DEFAULTS = PropertyDefaults.of(Adaptive.class);

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

    /**
     * When the adaptive switcher moves callers to blocking POOLED connections: few callers, or large values, on a short
     * round trip.
     * @param enabled Whether the switcher may move callers to blocking POOLED connections when the template has them.
     * @param maxConcurrency Calls in flight at or below which the blocking pool is proposed; at most 60% of pool-size.
     * @param maxMeanLatency Mean call latency at or below which the round trip counts as short enough.
     * @param poolSize Size of the blocking pool proposed.
     * @param maxWait How long a caller may wait for a connection of the blocking pool.
     * @param largeValueSize Mean value size per call (values written or found) from which values count as large: large
     *        values on a short round trip move to the blocking pool at any number of callers, and stay there while they
     *        are at least half this size. Unset by default (the rule is off): with the template's own timeout timer,
     *        shared connections measured level with a blocking pool at 100 KiB; try 16KB where a blocking pool measures
     *        ahead.
     * @param maxRoundTrip Longest round trip (the shortest call of a window) at which large values move to the blocking
     *        pool.
     */
    public record BlockingPool(@DefaultValue("true") boolean enabled, @DefaultValue("10") double maxConcurrency,
            @DefaultValue("1ms") Duration maxMeanLatency, @DefaultValue("20") int poolSize, @DefaultValue("1s") Duration maxWait,
            @Nullable DataSize largeValueSize, @DefaultValue("500us") Duration maxRoundTrip) {

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

    /**
     * Protection of a template's callers, on Resilience4j when it is on the classpath.
     * @param onFailure What callers see when a call fails because of the cache: fail-fast throws; degrade answers reads
     *        with a miss and skips writes, counting both (cas, incr and decr still throw). Also what a server that cannot
     *        be reached at startup does: fail-fast fails the application's start; degrade starts the template not
     *        connected (calls degrade at once, health is DOWN with the reason and the next attempt) and connects in the
     *        background, retrying from 100 ms up to every 5 s, so calls reach the server once it answers, with no
     *        restart.
     * @param circuitBreaker Circuit breaker that every call asks.
     * @param retry Retry of reads (get, getAll, gets); writes are never retried.
     * @param bulkhead Semaphore bulkhead capping concurrent calls.
     */
    public record Resilience(@DefaultValue("fail-fast") CacheFailureMode onFailure,
            @DefaultValue @NestedConfigurationProperty CircuitBreaker circuitBreaker,
            @DefaultValue @NestedConfigurationProperty Retry retry,
            @DefaultValue @NestedConfigurationProperty Bulkhead bulkhead) {

        /** The defaults: what a section that sets none of these properties has. */
        static final Resilience DEFAULTS = PropertyDefaults.of(Resilience.class);

        /** Checks the guards that are enabled. */
        void validate(String prefix) {
            PropertyRules.present(prefix + ".on-failure", this.onFailure, "fail-fast or degrade");
            if (this.circuitBreaker.enabled()) {
                this.circuitBreaker.validate(prefix + ".circuit-breaker");
            }
            if (this.retry.enabled()) {
                PropertyRules.atLeast(prefix + ".retry.max-attempts", this.retry.maxAttempts(), 1);
                PropertyRules.positive(prefix + ".retry.wait-duration", this.retry.waitDuration());
            }
            if (this.bulkhead.enabled()) {
                PropertyRules.atLeast(prefix + ".bulkhead.max-concurrent-calls", this.bulkhead.maxConcurrentCalls(), 1);
                PropertyRules.notNegative(prefix + ".bulkhead.max-wait-duration", this.bulkhead.maxWaitDuration(), "refuse at once");
            }
        }
    }

    /**
     * A template's circuit breaker; it counts only timeouts waiting for the server and lost connections.
     * @param enabled Whether calls pass through a circuit breaker.
     * @param name Name of the breaker; when the application has a Resilience4j CircuitBreakerRegistry holding one of that
     *        name, that one is used as configured there. Default: adaptive-cache-<template>.
     * @param failureRateThreshold Failure rate, in percent of the calls in the sliding window, at which the breaker opens.
     * @param slowCallRateThreshold Rate of slow calls, in percent, at which the breaker opens.
     * @param slowCallDurationThreshold Duration above which a call counts as slow.
     * @param slidingWindowSize Number of most recent calls the rates are computed over.
     * @param minimumNumberOfCalls Calls needed in the window before the rates count.
     * @param waitDurationInOpenState How long the breaker stays open (failing calls at once) before letting trial calls
     *        through.
     * @param permittedNumberOfCallsInHalfOpenState Trial calls let through when half open.
     */
    public record CircuitBreaker(@DefaultValue("true") boolean enabled, @Nullable String name,
            @DefaultValue("50") float failureRateThreshold, @DefaultValue("50") float slowCallRateThreshold,
            @DefaultValue("500ms") Duration slowCallDurationThreshold, @DefaultValue("100") int slidingWindowSize,
            @DefaultValue("20") int minimumNumberOfCalls, @DefaultValue("5s") Duration waitDurationInOpenState,
            @DefaultValue("5") int permittedNumberOfCallsInHalfOpenState) {

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

    /**
     * Retry of a template's reads.
     * @param enabled Whether failed reads are tried again.
     * @param name Name of the retry; one of that name in the application's RetryRegistry is used as configured there.
     *        Default: adaptive-cache-<template>.
     * @param maxAttempts Attempts in all, the first included.
     * @param waitDuration Wait between attempts.
     */
    public record Retry(@DefaultValue("false") boolean enabled, @Nullable String name, @DefaultValue("2") int maxAttempts,
            @DefaultValue("50ms") Duration waitDuration) {
    }

    /**
     * A semaphore bulkhead over a template's calls.
     * @param enabled Whether concurrent calls are capped.
     * @param name Name of the bulkhead; one of that name in the application's BulkheadRegistry is used as configured
     *        there. Default: adaptive-cache-<template>.
     * @param maxConcurrentCalls Calls allowed at once.
     * @param maxWaitDuration How long a caller over the cap waits for a permit before it is refused; 0 refuses at once.
     */
    public record Bulkhead(@DefaultValue("false") boolean enabled, @Nullable String name,
            @DefaultValue("256") int maxConcurrentCalls, @DefaultValue("0") Duration maxWaitDuration) {
    }
}
