package io.adaptivecache.autoconfigure;

import java.time.Duration;

import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import org.jspecify.annotations.Nullable;

/**
 * What a template's properties section (checked when bound) says about its strategies and its
 * adaptive switcher, resolved once ({@link AdaptiveCacheTemplateProperties#settings()}) for both
 * paths that need it: the template's builder ({@link TemplateBuilders}: the strategy it opens with,
 * its connection limit) and its switcher (the {@link io.adaptivecache.adaptive.SwitcherOptions}
 * {@link AdaptiveCacheSwitchers#options} makes of the pin, mode, window, history and policy).
 * {@code strategy.type} is read here only.
 *
 * @param name the template's name, the section's under {@code adaptive-cache}
 * @param prefix the section's prefix, such as {@code adaptive-cache.redis}, for messages
 * @param configured whether a properties section configures the template (not for an application's own template bean)
 * @param initial the strategy the template opens with: the configured one, or {@code adaptive.initial} when the type is adaptive
 * @param pinned the strategy pinned by configuration, or {@code null} when the switcher may choose
 * @param selector how the MULTI strategies the policy proposes pick a connection ({@code strategy.multi.selector})
 * @param mode what the switcher does with its decisions
 * @param window the switcher's measurement window
 * @param connectionLimit the most connections any strategy chosen at runtime may have
 * @param historyWindows how many windows the switcher's history keeps
 * @param adaptive the adaptive section, from which the default policy is built (its blocking-pool settings are checked
 *        only for a template with blocking connections, known once it is built)
 */
record TemplateSettings(String name, String prefix, boolean configured, StrategySpec initial, @Nullable StrategySpec pinned,
        SelectorType selector, AdaptiveMode mode, Duration window, int connectionLimit, int historyWindows,
        AdaptiveCacheTemplateProperties.Adaptive adaptive) {

    /** Resolves a properties section; {@link AdaptiveCacheTemplateProperties#settings()} keeps the result. */
    static TemplateSettings of(AdaptiveCacheTemplateProperties properties) {
        return resolve(properties.templateName(), properties.prefix(), true, properties.getStrategy(), properties.getAdaptive());
    }

    /**
     * The settings of a template of the application's own, which no section configures: the
     * defaults, so that it starts on the strategy it was built with and the default policy moves
     * it from there, as the properties' default ({@code strategy.type: adaptive}) does.
     */
    static TemplateSettings unconfigured(String name) {
        return resolve(name, "adaptive-cache." + name, false, AdaptiveCacheTemplateProperties.Strategy.DEFAULTS,
                AdaptiveCacheTemplateProperties.Adaptive.DEFAULTS);
    }

    private static TemplateSettings resolve(String name, String prefix, boolean configured,
            AdaptiveCacheTemplateProperties.Strategy strategy, AdaptiveCacheTemplateProperties.Adaptive adaptive) {
        AdaptiveCacheTemplateProperties.StrategyChoice choice = strategy.type();
        StrategyType type = switch (choice) {
            case SINGLE -> StrategyType.SINGLE;
            case MULTI -> StrategyType.MULTI;
            case POOLED -> StrategyType.POOLED;
            case ADAPTIVE -> adaptive.initial();
        };
        StrategySpec initial = switch (type) {
            case SINGLE -> StrategySpec.single();
            case MULTI -> multi(strategy.multi());
            case POOLED -> StrategySpec.pooled(pool(strategy.pool()));
        };
        StrategySpec pinned = choice == AdaptiveCacheTemplateProperties.StrategyChoice.ADAPTIVE ? null : initial;
        return new TemplateSettings(name, prefix, configured, initial, pinned, strategy.multi().selector(), adaptive.mode(),
                adaptive.window(), adaptive.connectionLimit(), AdaptiveCacheSwitchers.historyWindows(adaptive), adaptive);
    }

    /**
     * The property that holds the connection limit, for messages that tell an operator where to raise it.
     * @return such as {@code adaptive-cache.redis.adaptive.connection-limit}, or {@code null} for a template no property configures
     */
    @Nullable String connectionLimitProperty() {
        return this.configured ? this.prefix + ".adaptive.connection-limit" : null;
    }

    private static StrategySpec multi(AdaptiveCacheTemplateProperties.Multi multi) {
        Integer connections = multi.connections();
        return StrategySpec.multi(connections != null ? connections : StrategySpec.defaultMultiConnections(), multi.selector());
    }

    private static PoolSettings pool(AdaptiveCacheTemplateProperties.Pool pool) {
        return new PoolSettings(pool.maxTotal(), pool.maxIdle(), pool.minIdle(), pool.maxWait());
    }
}
