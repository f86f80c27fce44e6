/**
 * Spring Boot auto-configuration for adaptive-cache: {@link io.adaptivecache.CacheTemplate}
 * beans for Redis and memcached from {@code adaptive-cache.*} properties, customizers, lifecycle
 * and startup failure analysis.
 */
@NullMarked
package io.adaptivecache.autoconfigure;

import org.jspecify.annotations.NullMarked;
