/**
 * Spring's cache abstraction ({@code @Cacheable}, {@code @CachePut}, {@code @CacheEvict}) over
 * adaptive-cache templates: {@link io.adaptivecache.spring.cache.AdaptiveCacheManager}. A cache
 * outage costs a miss, never a failed request, unless configured to rethrow.
 */
@NullMarked
package io.adaptivecache.spring.cache;

import org.jspecify.annotations.NullMarked;
