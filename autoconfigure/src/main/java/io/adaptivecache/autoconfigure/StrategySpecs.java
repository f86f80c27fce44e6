package io.adaptivecache.autoconfigure;

import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import org.jspecify.annotations.Nullable;

/** Turns the strategy block of a template's properties (checked when they were bound) into a {@link StrategySpec}. */
final class StrategySpecs {

    private StrategySpecs() {
    }

    /** The strategy a template opens with: the configured one, or adaptive.initial when the type is adaptive. */
    static StrategySpec initial(AdaptiveCacheTemplateProperties settings) {
        AdaptiveCacheTemplateProperties.Strategy strategy = settings.getStrategy();
        StrategyType type = switch (strategy.getType()) {
            case SINGLE -> StrategyType.SINGLE;
            case MULTI -> StrategyType.MULTI;
            case POOLED -> StrategyType.POOLED;
            case ADAPTIVE -> settings.getAdaptive().getInitial();
        };
        return switch (type) {
            case SINGLE -> StrategySpec.single();
            case MULTI -> multi(strategy.getMulti());
            case POOLED -> StrategySpec.pooled(pool(strategy.getPool()));
        };
    }

    /** The strategy pinned by configuration, or null when the switcher may choose. */
    static @Nullable StrategySpec pinned(AdaptiveCacheTemplateProperties settings) {
        return settings.getStrategy().getType() == AdaptiveCacheTemplateProperties.StrategyChoice.ADAPTIVE ? null : initial(settings);
    }

    private static StrategySpec multi(AdaptiveCacheTemplateProperties.Multi multi) {
        Integer connections = multi.getConnections();
        return StrategySpec.multi(connections != null ? connections : Runtime.getRuntime().availableProcessors(), multi.getSelector());
    }

    private static PoolSettings pool(AdaptiveCacheTemplateProperties.Pool pool) {
        return new PoolSettings(pool.getMaxTotal(), pool.getMaxIdle(), pool.getMinIdle(), pool.getMaxWait());
    }
}
