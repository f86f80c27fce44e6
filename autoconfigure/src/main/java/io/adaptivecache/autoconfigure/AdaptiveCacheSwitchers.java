package io.adaptivecache.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.StrategySwitchers;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.adaptive.SwitchListener;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.strategy.StrategySpec;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The adaptive switcher of every managed cache template, by template name ({@code redis},
 * {@code memcached}, and the names of the application's own template beans). Switchers are
 * created when the templates start and stopped with them; each switch is published as a
 * {@link CacheStrategySwitchedEvent} and passed to the listeners added here (metrics). The
 * Actuator endpoint and health indicators read it as {@link StrategySwitchers}.
 */
public class AdaptiveCacheSwitchers implements StrategySwitchers {

    private final AdaptiveCacheProperties properties;
    private final ApplicationEventPublisher events;
    private final Map<String, StrategySwitcher> switchers = Collections.synchronizedMap(new LinkedHashMap<>());
    private final List<SwitchListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * Creates the registry.
     * @param properties the adaptive settings per backend
     * @param events where switches are published
     */
    public AdaptiveCacheSwitchers(AdaptiveCacheProperties properties, ApplicationEventPublisher events) {
        this.properties = properties;
        this.events = events;
    }

    /**
     * Adds a listener to every switcher's switches.
     * @param listener the listener
     */
    public void addListener(SwitchListener listener) {
        this.listeners.add(listener);
    }

    /**
     * The switcher of a template.
     * @param name the template's name
     * @return the switcher, or {@code null} if there is none
     */
    @Override
    public StrategySwitcher get(String name) {
        return this.switchers.get(name);
    }

    /**
     * Every switcher.
     * @return the switchers, in template order
     */
    @Override
    public Collection<StrategySwitcher> all() {
        synchronized (this.switchers) {
            return List.copyOf(this.switchers.values());
        }
    }

    /**
     * Creates and starts the switcher of a started template: configured by its backend's
     * properties for the auto-configured templates ({@code redis}, {@code memcached}); for a
     * template of the application's own, with the default adaptive settings, pinned to the
     * strategy it was built with until an operator unpins it.
     */
    void start(CacheTemplateManagement template) {
        AdaptiveCacheProperties.TemplateSettings settings = settingsOf(template.name());
        String prefix = "adaptive-cache." + template.name();
        AdaptiveCacheProperties.Adaptive adaptive = settings != null ? settings.getAdaptive() : new AdaptiveCacheProperties.Adaptive();
        StrategySpec pinned = settings != null ? StrategySpecs.pinned(prefix, settings) : template.activeStrategy();
        ThresholdStrategyPolicy.Settings policy = policySettings(prefix + ".adaptive", adaptive);
        // A template with blocking POOLED connections lets the policy move a few callers onto them.
        ThresholdStrategyPolicy.BlockingPool blockingPool = template.pooledConnectionsBlock() && adaptive.getBlockingPool().isEnabled()
                ? blockingPool(prefix + ".adaptive.blocking-pool", adaptive.getBlockingPool()) : null;
        if (blockingPool != null && blockingPool.poolSize() > adaptive.getConnectionLimit()) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".adaptive.blocking-pool.pool-size", blockingPool.poolSize(),
                    "it must be at most " + prefix + ".adaptive.connection-limit (" + adaptive.getConnectionLimit() + ")");
        }
        StrategySwitcher switcher = new StrategySwitcher(template, new ThresholdStrategyPolicy(policy, blockingPool), adaptive.getWindow(),
                adaptive.getMode(), pinned, System::nanoTime, Clock.systemUTC(), this::publish, adaptive.getConnectionLimit(),
                historyWindows(prefix + ".adaptive", adaptive));
        this.switchers.put(template.name(), switcher);
        switcher.start();
    }

    /**
     * The property that holds a template's connection limit ({@link StrategySwitcher#connectionLimit()}),
     * for messages that tell an operator where to raise it.
     * @param name the template's name
     * @return the property, such as {@code adaptive-cache.redis.adaptive.connection-limit}, or
     *         {@code null} for a template that no property configures
     */
    @Override
    public String connectionLimitProperty(String name) {
        return settingsOf(name) != null ? "adaptive-cache." + name + ".adaptive.connection-limit" : null;
    }

    void stopAll() {
        all().forEach(StrategySwitcher::close);
        this.switchers.clear();
    }

    private void publish(SwitchEvent event) {
        this.listeners.forEach(listener -> listener.onSwitch(event));
        this.events.publishEvent(new CacheStrategySwitchedEvent(this, event));
    }

    private AdaptiveCacheProperties.TemplateSettings settingsOf(String name) {
        return switch (name) {
            case "redis" -> this.properties.getRedis();
            case "memcached" -> this.properties.getMemcached();
            default -> null;
        };
    }

    static ThresholdStrategyPolicy.Settings policySettings(String prefix, AdaptiveCacheProperties.Adaptive adaptive) {
        positive(prefix + ".window", adaptive.getWindow());
        positive(prefix + ".dwell", adaptive.getDwell());
        positive(prefix + ".trial", adaptive.getTrial());
        ThresholdStrategyPolicy.Settings defaults = ThresholdStrategyPolicy.Settings.defaults();
        Integer maxConnections = adaptive.getMaxConnections();
        if (maxConnections != null && maxConnections < 1) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".max-connections", maxConnections,
                    "it must be at least 1 (leave it unset for one per processor)");
        }
        int limit = adaptive.getConnectionLimit();
        if (limit < 1) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".connection-limit", limit, "it must be at least 1");
        }
        if (maxConnections != null && maxConnections > limit) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".max-connections", maxConnections,
                    "it must be at most " + prefix + ".connection-limit (" + limit + ")");
        }
        if (adaptive.getMaxSwitchesPerHour() < 1) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".max-switches-per-hour", adaptive.getMaxSwitchesPerHour(),
                    "it must be at least 1");
        }
        return new ThresholdStrategyPolicy.Settings(maxConnections != null ? maxConnections : Math.min(defaults.maxConnections(), limit),
                defaults.selector(), adaptive.getMinCallsPerWindow(), defaults.growAbove(), defaults.shrinkBelow(),
                defaults.poolWaitRatio(), defaults.confirmWindows(), adaptive.getDwell(),
                defaults.maxDwell().compareTo(adaptive.getDwell()) < 0 ? adaptive.getDwell() : defaults.maxDwell(),
                adaptive.getTrial(), defaults.trialTolerance(), defaults.suppressAfterRollbacks(), defaults.suppression(),
                adaptive.getMaxSwitchesPerHour());
    }

    /** The windows {@code history} covers, checked: the property is named if it is not positive or reaches too far. */
    static int historyWindows(String prefix, AdaptiveCacheProperties.Adaptive adaptive) {
        positive(prefix + ".history", adaptive.getHistory());
        try {
            return StrategySwitcher.historyWindows(adaptive.getHistory(), adaptive.getWindow());
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".history", adaptive.getHistory(), "it must cover at most "
                    + StrategySwitcher.MAX_HISTORY_WINDOWS + " windows of " + prefix + ".window (" + adaptive.getWindow() + ")");
        }
    }

    static ThresholdStrategyPolicy.BlockingPool blockingPool(String prefix, AdaptiveCacheProperties.BlockingPool settings) {
        positive(prefix + ".max-mean-latency", settings.getMaxMeanLatency());
        positive(prefix + ".max-wait", settings.getMaxWait());
        if (settings.getPoolSize() < 1) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".pool-size", settings.getPoolSize(), "it must be at least 1");
        }
        positive(prefix + ".max-round-trip", settings.getMaxRoundTrip());
        if (settings.getLargeValueSize() != null && settings.getLargeValueSize().toBytes() < 2) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".large-value-size", settings.getLargeValueSize(),
                    "it must be at least 2 bytes (values stay large down to half of it), or unset to leave the rule off");
        }
        long largeValueBytes = settings.getLargeValueSize() == null ? ThresholdStrategyPolicy.BlockingPool.DEFAULT_LARGE_VALUE_BYTES
                : settings.getLargeValueSize().toBytes();
        try {
            return new ThresholdStrategyPolicy.BlockingPool(settings.getMaxConcurrency(), settings.getMaxMeanLatency(),
                    settings.getPoolSize(), settings.getMaxWait(), largeValueBytes, settings.getMaxRoundTrip());
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".max-concurrency", settings.getMaxConcurrency(),
                    "it must be positive and at most 60% of pool-size (" + settings.getPoolSize()
                            + "), so that the pool it proposes is not saturated at once");
        }
    }

    private static void positive(String property, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be a positive duration");
        }
    }

    /** For tests and tools: whether a template's switcher is in the given mode. */
    boolean hasMode(String name, AdaptiveMode mode) {
        StrategySwitcher switcher = get(name);
        return switcher != null && switcher.state().mode() == mode;
    }
}
