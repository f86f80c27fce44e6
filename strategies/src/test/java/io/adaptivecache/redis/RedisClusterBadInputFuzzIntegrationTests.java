package io.adaptivecache.redis;

import java.util.List;

import io.adaptivecache.contract.BadInputFuzzContract;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Random input at a Redis Cluster: refused before anything is sent, whichever node a key
 * belongs to, and nothing already stored on any node is lost.
 */
class RedisClusterBadInputFuzzIntegrationTests extends BadInputFuzzContract {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return RedisClusterCacheTemplates.builder().nodes(redis.cluster().seedAddresses().split(",")).strategy(strategy)
                .maxKeyBytes(512).maxValueBytes(64 * 1024).start();
    }

    @Override
    protected boolean printableKeysOnly() {
        return false;
    }

    @Override
    protected List<String> barrierKeys(String prefix) {
        // One key on each master that owns slots, so that the barrier passes through the connection to every node that
        // serves keys. A master that owns none (seen once in CI: a node promoted while the cluster settled, whose slots
        // the view did not show yet) is passed over: no key is routed to it, so nothing of a refused call can be there.
        return redis.cluster().masters().stream().<String>mapMulti((master, keys) -> {
            try {
                keys.accept(redis.cluster().keyOn(master, prefix + "barrier:"));
            }
            catch (IllegalArgumentException ownsNoSlots) {
                // Passed over, as said above.
            }
        }).toList();
    }

    @Override
    protected long serverBytesRead() {
        // Every node, replicas too: a key may be routed anywhere. A replica's replication stream is
        // counted apart (total_net_repl_input_bytes); its once-a-second acknowledgement to its master
        // is not, which is what the contract's repeated windows allow for.
        long bytes = 0;
        for (io.adaptivecache.devservers.RedisServer node : redis.cluster().nodes()) {
            bytes += Long.parseLong(node.info("stats", "total_net_input_bytes"));
        }
        return bytes;
    }
}
