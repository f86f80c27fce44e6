package io.adaptivecache.management;

import io.adaptivecache.CacheTemplate;

/**
 * A cache template together with its management: what the template builders
 * ({@code RedisCacheTemplates}, {@code RedisClusterCacheTemplates}, {@code MemcachedCacheTemplates})
 * return, and the type of the template beans in a Spring Boot application. Hand the
 * {@link CacheTemplate} side to the code that caches; the {@link CacheTemplateManagement} side
 * is for whatever starts, switches, observes and closes the template.
 *
 * <p>In Spring Boot, declare a template bean of your own as this type (not as
 * {@link CacheTemplate}): the starter then starts and closes it with the context, gives it an
 * adaptive switcher, meters, a health indicator and a place in the Actuator endpoint, as it does
 * for its own templates.
 */
public interface ManagedCacheTemplate extends CacheTemplate, CacheTemplateManagement {

    /**
     * The name this template was given, used in logs, metrics tags and the endpoint's paths.
     * @return the name
     */
    @Override
    String name();

    /** Stops accepting calls, lets calls in flight finish (within the drain timeout) and closes every connection. Idempotent. */
    @Override
    void close();
}
