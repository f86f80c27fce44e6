package io.adaptivecache.redis;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;

/** Random input at Redis with Jedis as the POOLED driver. */
class RedisJedisPooledBadInputFuzzIntegrationTests extends RedisBadInputFuzzIntegrationTests {

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return RedisCacheTemplates.builder().uri(redis.uri()).pooledDriver(RedisDriver.JEDIS).strategy(strategy).maxKeyBytes(512)
                .maxValueBytes(64 * 1024).start();
    }
}
