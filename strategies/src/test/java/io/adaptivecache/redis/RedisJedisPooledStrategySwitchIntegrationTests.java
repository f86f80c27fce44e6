package io.adaptivecache.redis;

import java.time.Duration;
import java.util.List;

import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.contract.StrategySwitchContract;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Switching under load between Jedis-pooled and Lettuce-shared strategies, and the pool's connection bound on Jedis. */
class RedisJedisPooledStrategySwitchIntegrationTests extends StrategySwitchContract {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    protected DefaultCacheTemplate<?> startTemplate(StrategySpec strategy) {
        return RedisCacheTemplates.builder().uri(redis.uri()).pooledDriver(RedisDriver.JEDIS).strategy(strategy)
                .commandTimeout(Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10)).start();
    }

    @Override
    protected List<Integer> serverConnections() {
        return List.of(redis.server().connectedClients());
    }
}
