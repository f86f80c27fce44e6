package io.adaptivecache.strategy;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/**
 * Adjusts the commons-pool2 configuration of every POOLED strategy a template opens, after
 * the bounds from {@link PoolSettings} are applied (for example eviction of idle connections,
 * or fairness). Only called when commons-pool2 is on the classpath.
 */
@FunctionalInterface
public interface PoolConfigCustomizer {

    /**
     * Leaves the configuration as it is. A class rather than a lambda: a lambda's bootstrap
     * resolves its parameter type, which would make commons-pool2 required even for templates
     * that never open a POOLED strategy.
     */
    PoolConfigCustomizer NONE = new PoolConfigCustomizer() {

        @Override
        public void customize(GenericObjectPoolConfig<?> config) {
        }
    };

    /**
     * Adjusts the configuration.
     * @param config the pool's configuration, already holding max-total, max-idle, min-idle and max-wait
     */
    void customize(GenericObjectPoolConfig<?> config);
}
