package io.adaptivecache.autoconfigure;

import net.rubyeye.xmemcached.XMemcachedClientBuilder;

/**
 * Adjusts the {@link XMemcachedClientBuilder} of every client of the memcached cache template,
 * after the starter's defaults, when its driver is XMemcached
 * ({@code adaptive-cache.memcached.driver=xmemcached}). Beans are applied in {@code @Order}.
 */
@FunctionalInterface
public interface XMemcachedClientBuilderCustomizer {

    /**
     * Adjusts the builder.
     * @param builder the builder
     */
    void customize(XMemcachedClientBuilder builder);
}
