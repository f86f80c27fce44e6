package io.adaptivecache.redis;

import java.time.Duration;
import java.util.List;

import io.adaptivecache.contract.StrategySwitchContract;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisClusterExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Switching under load and connection bounds on a three-master Redis Cluster. */
class RedisClusterStrategySwitchIntegrationTests extends StrategySwitchContract {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        // Generous timeouts, as on one server: 200 threads and six servers share two cores.
        return RedisClusterCacheTemplates.builder().nodes(redis.cluster().seedAddresses().split(",")).strategy(strategy)
                .commandTimeout(Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10)).start();
    }

    /** All nodes together: which node a connection's keyless socket goes to is the client's choice. */
    @Override
    protected List<Integer> serverConnections() {
        return List.of(redis.cluster().nodes().stream().mapToInt(RedisServer::connectedClients).sum());
    }

    /**
     * Not counted: Lettuce's periodic topology refresh opens and closes its own connections to
     * every node, which the nodes count alongside the strategy's; the sampled peak still holds.
     */
    @Override
    protected @Nullable List<Long> connectionsAccepted() {
        return null;
    }

    @Override
    protected int socketsPerConnection() {
        return redis.cluster().masters().size() + 1;
    }
}
