package io.adaptivecache.autoconfigure;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/**
 * Adjusts the commons-pool2 configuration of a template's POOLED strategy, after max-total,
 * max-idle, min-idle and max-wait are applied. Beans are applied in {@code @Order}.
 */
@FunctionalInterface
public interface CachePoolCustomizer {

    /**
     * Adjusts the configuration.
     * @param templateName {@code redis} or {@code memcached}
     * @param config the pool configuration
     */
    void customize(String templateName, GenericObjectPoolConfig<?> config);
}
