/**
 * Spring Data Redis over an adaptive-cache Redis template's connections:
 * {@link io.adaptivecache.spring.data.redis.AdaptiveRedisConnectionFactory}, so that
 * {@code RedisTemplate}, {@code StringRedisTemplate} and what is built on them run on the
 * template's live strategy (SINGLE, MULTI or POOLED) and follow its switches.
 */
@NullMarked
package io.adaptivecache.spring.data.redis;

import org.jspecify.annotations.NullMarked;
