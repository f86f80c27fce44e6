package io.adaptivecache.redis;

import java.time.Duration;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;

/** Switching under load between Jedis-pooled and Lettuce-shared strategies, and the pool's connection bound on Jedis. */
class RedisJedisPooledStrategySwitchIntegrationTests extends RedisStrategySwitchIntegrationTests {

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return RedisCacheTemplates.builder().uri(redis.uri()).pooledDriver(RedisDriver.JEDIS).strategy(strategy)
                .commandTimeout(Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10)).start();
    }
}
