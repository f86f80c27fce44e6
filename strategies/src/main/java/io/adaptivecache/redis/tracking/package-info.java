/**
 * The Redis invalidation source of near caches: one dedicated RESP3 connection per Redis server
 * with server-assisted client-side caching in broadcasting mode ({@code CLIENT TRACKING on BCAST
 * PREFIX ...}), proven live by heartbeats and proven to track the near caches' keyspace by a
 * marker key. Start with {@link io.adaptivecache.redis.tracking.RedisInvalidations#builder()}.
 *
 * <p>A package of its own, apart from the Lettuce and Jedis template code of
 * {@code io.adaptivecache.redis}: this package builds on that one (URIs, transport, the
 * credential-safe encoder), never the reverse, so that the templates know nothing of near caches.
 */
@NullMarked
package io.adaptivecache.redis.tracking;

import org.jspecify.annotations.NullMarked;
