package io.adaptivecache.autoconfigure;

import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;

/** Turns the strategy block of a backend's properties into a {@link StrategySpec}, naming the property at fault. */
final class StrategySpecs {

    private StrategySpecs() {
    }

    static StrategySpec from(String prefix, AdaptiveCacheProperties.Strategy strategy) {
        return switch (strategy.getType()) {
            case SINGLE -> StrategySpec.single();
            case MULTI -> multi(prefix + ".strategy.multi", strategy.getMulti());
            case POOLED -> StrategySpec.pooled(pool(prefix + ".strategy.pool", strategy.getPool()));
        };
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
