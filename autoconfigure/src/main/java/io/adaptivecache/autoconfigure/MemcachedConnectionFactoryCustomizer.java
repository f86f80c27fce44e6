package io.adaptivecache.autoconfigure;

import net.spy.memcached.ConnectionFactoryBuilder;

/**
 * Adjusts the spymemcached {@link ConnectionFactoryBuilder} of every client of the memcached
 * cache template, after the starter's defaults, when its driver is spymemcached. Beans are
 * applied in {@code @Order}.
 */
@FunctionalInterface
public interface MemcachedConnectionFactoryCustomizer {

    /**
     * Adjusts the builder.
     * @param builder the builder
     */
    void customize(ConnectionFactoryBuilder builder);
}
