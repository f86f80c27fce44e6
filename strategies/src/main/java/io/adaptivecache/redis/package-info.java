/**
 * The Redis backend on lettuce-core: one "connection" is one thread-safe Lettuce
 * {@code StatefulRedisConnection}; every connection of a template shares one
 * {@code ClientResources} (event loops and the command-timeout timer). Start with
 * {@link io.adaptivecache.redis.RedisCacheTemplates#builder()}.
 */
package io.adaptivecache.redis;
