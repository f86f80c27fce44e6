package io.adaptivecache.redis;

import java.time.Duration;
import java.util.List;

import io.adaptivecache.contract.StrategySwitchContract;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Switching under load and connection bounds on Redis. */
class RedisStrategySwitchIntegrationTests extends StrategySwitchContract {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        // Generous timeouts: these tests are about connection counts and lost writes under 200 threads on
        // two cores, where a one-second command timeout is a matter of scheduling luck.
        return RedisCacheTemplates.builder().uri(redis.uri()).strategy(strategy).commandTimeout(Duration.ofSeconds(5))
                .drainTimeout(Duration.ofSeconds(10)).start();
    }

    @Override
    protected List<Integer> serverConnections() {
        return List.of(redis.server().connectedClients());
    }

    @Override
    protected List<Long> connectionsAccepted() {
        return List.of(Long.parseLong(redis.server().info("stats", "total_connections_received")));
    }
}
