package io.adaptivecache.redis;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.adaptivecache.backend.NodeLocator;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.metrics.NodeSensors;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

/**
 * Attributes a key to the master that owns its hash slot in the connection's current topology
 * view (an array lookup by slot). A failover shows as a new node: the promoted replica has its
 * own node id. With reads from replicas, a read is still attributed to its slot's master: the
 * figures are per shard.
 *
 * <p>When a node does not answer (or its breaker refuses a call), another master is asked at
 * once (at most every 250 ms) who serves the key's slot now, and the topology is read again when
 * that is no longer the failing node: a replica's promotion is seen within about 250 ms of
 * happening rather than at the next periodic refresh, and a node that is merely down costs no
 * topology reads.
 */
final class ClusterNodeLocator implements NodeLocator<StatefulRedisClusterConnection<String, byte[]>> {

    private static final String UNCOVERED = "(uncovered slot)";

    /**
     * The least time between two topology reads asked for by failing calls: a promoted replica is
     * found within about this long of its promotion, and a node that keeps failing costs at most
     * four reads of the topology a second.
     */
    static final long MIN_REFRESH_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final NodeSensors sensors;
    private final Runnable refresh;
    private final AtomicLong lastRefresh = new AtomicLong(System.nanoTime() - MIN_REFRESH_GAP_NANOS);

    ClusterNodeLocator(NodeSensors sensors) {
        this(sensors, () -> {
        });
    }

    /**
     * @param sensors where nodes are recorded
     * @param refresh reads the topology again, without blocking
     */
    ClusterNodeLocator(NodeSensors sensors, Runnable refresh) {
        this.sensors = sensors;
        this.refresh = refresh;
    }

    @Override
    public String describe(StatefulRedisClusterConnection<String, byte[]> connection, String key, NodeSensor node) {
        int slot = SlotHash.getSlot(key);
        return UNCOVERED.equals(node.id()) ? "slot " + slot + " (no node serves it)" : "node " + node.address() + " (slot " + slot + ")";
    }

    @Override
    public void onNodeFailure(StatefulRedisClusterConnection<String, byte[]> connection, String key, NodeSensor node) {
        // Not on every failure: one look at a time, at most every 250 ms.
        long now = System.nanoTime();
        long last = this.lastRefresh.get();
        if (now - last < MIN_REFRESH_GAP_NANOS || !this.lastRefresh.compareAndSet(last, now)) {
            return;
        }
        int slot = SlotHash.getSlot(key);
        RedisClusterNode witness = null;
        for (RedisClusterNode candidate : connection.getPartitions()) {
            if (candidate.getRole() != null && candidate.getRole().isUpstream() && !candidate.getNodeId().equals(node.id())
                    && !candidate.is(RedisClusterNode.NodeFlag.FAIL) && !candidate.getSlots().isEmpty()) {
                witness = candidate;
                break;
            }
        }
        if (witness == null) {
            this.refresh.run();
            return;
        }
        // Ask one other master who serves the slot now, and read the whole topology only when the answer differs
        // from ours: a refresh connects to every node, the failed one too, and Lettuce logs a warning each time
        // it cannot, so refreshing on every failure would repeat that warning all through an outage.
        try {
            connection.getConnectionAsync(witness.getNodeId())
                    .thenCompose(other -> other.async().clusterNodes())
                    .thenAccept(nodes -> {
                        if (!servedBy(ClusterPartitionParser.parse(nodes), slot, node.id())) {
                            this.refresh.run();
                        }
                    })
                    .exceptionally(failure -> null);
        }
        catch (RuntimeException ex) {
            // A connection closing under us: the periodic refresh remains.
        }
    }

    /** Whether the topology has the slot served by that node, as a master that has not failed. */
    private static boolean servedBy(Iterable<RedisClusterNode> topology, int slot, String nodeId) {
        for (RedisClusterNode candidate : topology) {
            if (candidate.hasSlot(slot) && candidate.getRole() != null && candidate.getRole().isUpstream()
                    && !candidate.is(RedisClusterNode.NodeFlag.FAIL)) {
                return candidate.getNodeId().equals(nodeId);
            }
        }
        return UNCOVERED.equals(nodeId);
    }

    @Override
    public NodeSensor locate(StatefulRedisClusterConnection<String, byte[]> connection, String key) {
        RedisClusterNode node = connection.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
        if (node == null || node.getNodeId() == null) {
            return this.sensors.register(UNCOVERED, UNCOVERED);
        }
        NodeSensor known = this.sensors.sensor(node.getNodeId());
        if (known != null) {
            return known;
        }
        RedisURI uri = node.getUri();
        return this.sensors.register(node.getNodeId(), uri == null ? node.getNodeId() : uri.getHost() + ":" + uri.getPort());
    }
}
