/**
 * Near caching: a local tier (Caffeine) in front of a template, for keys under chosen prefixes.
 * {@link io.adaptivecache.near.NearCacheTemplates#redis} keeps it correct with Redis
 * server-assisted client-side caching through an {@link io.adaptivecache.near.InvalidationSource}
 * ({@code io.adaptivecache.redis.tracking.RedisInvalidations}); {@link io.adaptivecache.near.NearCacheTemplates#stalenessBounded}
 * bounds staleness with a time to live only (memcached). The data path is untouched: the remote
 * template keeps its strategy, driver and live switches. This package depends on no cache client;
 * Caffeine is optional and needed only here.
 */
@NullMarked
package io.adaptivecache.near;

import org.jspecify.annotations.NullMarked;
