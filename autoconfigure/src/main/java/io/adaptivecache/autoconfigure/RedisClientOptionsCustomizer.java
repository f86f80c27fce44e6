package io.adaptivecache.autoconfigure;

import io.lettuce.core.ClientOptions;

/**
 * Adjusts Lettuce's {@link ClientOptions} of the Redis cache template after the starter's
 * defaults (TCP_NODELAY, timeouts, bounded request queue). Beans are applied in {@code @Order}.
 */
@FunctionalInterface
public interface RedisClientOptionsCustomizer {

    /**
     * Adjusts the options.
     * @param options the builder
     */
    void customize(ClientOptions.Builder options);
}
