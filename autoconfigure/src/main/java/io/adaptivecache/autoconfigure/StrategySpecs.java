package io.adaptivecache.autoconfigure;

import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;

/** Turns the strategy block of a backend's properties into a {@link StrategySpec}, naming the property at fault. */
final class StrategySpecs {

    private StrategySpecs() {
    }

    /** The strategy a template opens with: the configured one, or adaptive.initial when the type is adaptive. */
    static StrategySpec initial(String prefix, AdaptiveCacheProperties.TemplateSettings settings) {
        AdaptiveCacheProperties.Strategy strategy = settings.getStrategy();
        StrategyType type = switch (strategy.getType()) {
            case SINGLE -> StrategyType.SINGLE;
            case MULTI -> StrategyType.MULTI;
            case POOLED -> StrategyType.POOLED;
            case ADAPTIVE -> settings.getAdaptive().getInitial();
        };
        return switch (type) {
            case SINGLE -> StrategySpec.single();
            case MULTI -> multi(prefix + ".strategy.multi", strategy.getMulti());
            case POOLED -> StrategySpec.pooled(pool(prefix + ".strategy.pool", strategy.getPool()));
        };
    }

    /** The strategy pinned by configuration, or null when the switcher may choose. */
    static StrategySpec pinned(String prefix, AdaptiveCacheProperties.TemplateSettings settings) {
        return settings.getStrategy().getType() == AdaptiveCacheProperties.StrategyChoice.ADAPTIVE ? null
                : initial(prefix, settings);
    }

    private static StrategySpec multi(String prefix, AdaptiveCacheProperties.Multi multi) {
        Integer connections = multi.getConnections();
        if (connections == null) {
            return StrategySpec.multi(Runtime.getRuntime().availableProcessors(), multi.getSelector());
        }
        if (connections < 1) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".connections", connections,
                    "it must be at least 1 (leave it unset for one connection per processor)");
        }
        return StrategySpec.multi(connections, multi.getSelector());
    }

    private static PoolSettings pool(String prefix, AdaptiveCacheProperties.Pool pool) {
        if (pool.getMaxTotal() < 1) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".max-total", pool.getMaxTotal(), "it must be at least 1");
        }
        if (pool.getMaxIdle() < 0 || pool.getMaxIdle() > pool.getMaxTotal()) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".max-idle", pool.getMaxIdle(),
                    "it must be between 0 and max-total (" + pool.getMaxTotal() + ")");
        }
        if (pool.getMinIdle() < 0 || pool.getMinIdle() > pool.getMaxIdle()) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".min-idle", pool.getMinIdle(),
                    "it must be between 0 and max-idle (" + pool.getMaxIdle() + ")");
        }
        if (pool.getMaxWait() == null || pool.getMaxWait().isNegative() || pool.getMaxWait().isZero()) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".max-wait", pool.getMaxWait(), "it must be a positive duration");
        }
        return new PoolSettings(pool.getMaxTotal(), pool.getMaxIdle(), pool.getMinIdle(), pool.getMaxWait());
    }

    /** Runs a builder step, turning its IllegalArgumentException into one that names the property. */
    static <T> T property(String property, Object value, String allowed, java.util.function.Supplier<T> step) {
        try {
            return step.get();
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidAdaptiveCachePropertyException(property, value, allowed + " (" + ex.getMessage() + ")");
        }
    }
}
