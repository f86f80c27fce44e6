package io.adaptivecache.redis;

import java.time.Duration;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.strategy.StrategySpec;

/** Dead, frozen and overloaded Redis with Jedis as the POOLED driver: the same tests, the POOLED cases on blocking connections. */
class RedisJedisPooledServerFaultIntegrationTests extends RedisServerFaultIntegrationTests {

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy, CallGuard guard, int queueSize) {
        return RedisCacheTemplates.builder().uri(redis.uri()).pooledDriver(RedisDriver.JEDIS).strategy(strategy).guard(guard)
                .commandTimeout(TIMEOUT).connectTimeout(CONNECT_TIMEOUT).maxReconnectDelay(Duration.ofSeconds(1))
                .requestQueueSize(queueSize).drainTimeout(Duration.ofSeconds(2)).start();
    }
}
