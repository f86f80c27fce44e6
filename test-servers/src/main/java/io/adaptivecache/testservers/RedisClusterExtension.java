package io.adaptivecache.testservers;

import java.time.Duration;
import java.util.List;

/**
 * Starts one {@link RedisCluster} (six nodes: three masters, three replicas) for a test class and
 * stops it afterwards. Register it on a {@code static} field:
 * {@code @RegisterExtension static final RedisClusterExtension redisCluster = new RedisClusterExtension();}.
 * Tests that kill or freeze nodes change the cluster for the tests after them in the class.
 */
public final class RedisClusterExtension extends ServersExtension<RedisCluster> {

    /** An extension for a cluster with the default {@code cluster-node-timeout} of 1 s. */
    public RedisClusterExtension() {
        this(new RedisCluster());
    }

    private RedisClusterExtension(RedisCluster cluster) {
        super(cluster, RedisCluster::start, RedisCluster::stop);
    }

    /**
     * An extension for a cluster with the given {@code cluster-node-timeout}.
     * @param nodeTimeout how long a node may be unreachable before it is suspected to have failed
     * @return the extension
     */
    public static RedisClusterExtension withNodeTimeout(Duration nodeTimeout) {
        return new RedisClusterExtension(RedisCluster.withNodeTimeout(nodeTimeout));
    }

    /** The running cluster. */
    public RedisCluster cluster() {
        return servers();
    }

    /** The nodes' URIs for Lettuce, {@code redis://127.0.0.1:PORT}, one per node. */
    public List<String> seedUris() {
        return servers().seedUris();
    }
}
