/**
 * The Redis backend on lettuce-core: one "connection" is one thread-safe Lettuce
 * {@code StatefulRedisConnection} (or, for Redis Cluster, one cluster connection); every
 * connection of a template shares one {@code ClientResources} (event loops and the
 * command-timeout timer). POOLED strategies may run on blocking Jedis connections instead
 * ({@link io.adaptivecache.redis.RedisDriver#JEDIS}). Start with
 * {@link io.adaptivecache.redis.RedisCacheTemplates#builder()} or
 * {@link io.adaptivecache.redis.RedisClusterCacheTemplates#builder()}.
 */
@NullMarked
package io.adaptivecache.redis;

import org.jspecify.annotations.NullMarked;
