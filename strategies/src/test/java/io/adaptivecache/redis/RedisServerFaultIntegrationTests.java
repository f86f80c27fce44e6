package io.adaptivecache.redis;

import java.time.Duration;

import io.adaptivecache.contract.ServerFaultContract;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Dead, frozen and overloaded Redis, on a server of this class's own. */
class RedisServerFaultIntegrationTests extends ServerFaultContract {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    protected ServerProcess server() {
        return redis.server();
    }

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy, CallGuard guard, int queueSize) {
        return RedisCacheTemplates.builder().uri(redis.uri()).strategy(strategy).guard(guard).commandTimeout(TIMEOUT)
                .connectTimeout(CONNECT_TIMEOUT).maxReconnectDelay(Duration.ofSeconds(1)).requestQueueSize(queueSize)
                .drainTimeout(Duration.ofSeconds(2)).start();
    }
}
