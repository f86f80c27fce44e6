package io.adaptivecache.autoconfigure;

import io.lettuce.core.resource.ClientResources;

/**
 * Adjusts the Lettuce {@link ClientResources} (event loops, timer, metrics) that every
 * connection of the Redis cache template shares. Beans are applied in {@code @Order}.
 */
@FunctionalInterface
public interface RedisClientResourcesCustomizer {

    /**
     * Adjusts the resources.
     * @param resources the builder
     */
    void customize(ClientResources.Builder resources);
}
