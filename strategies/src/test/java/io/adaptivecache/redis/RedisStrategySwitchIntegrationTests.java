package io.adaptivecache.redis;

import java.util.List;

import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.contract.StrategySwitchContract;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Switching under load and connection bounds on Redis. */
class RedisStrategySwitchIntegrationTests extends StrategySwitchContract {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    protected DefaultCacheTemplate<?> startTemplate(StrategySpec strategy) {
        return RedisCacheTemplates.builder().uri(redis.uri()).strategy(strategy).start();
    }

    @Override
    protected List<Integer> serverConnections() {
        return List.of(redis.server().connectedClients());
    }
}
