package io.adaptivecache.redis;

import io.adaptivecache.command.NodeLocator;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.metrics.NodeSensors;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

/**
 * Attributes a key to the master that owns its hash slot in the connection's current topology
 * view (an array lookup by slot). A failover shows as a new node: the promoted replica has its
 * own node id. With reads from replicas, a read is still attributed to its slot's master: the
 * figures are per shard.
 */
final class ClusterNodeLocator implements NodeLocator<StatefulRedisClusterConnection<String, byte[]>> {

    private static final String UNCOVERED = "(uncovered slot)";

    private final NodeSensors sensors;

    ClusterNodeLocator(NodeSensors sensors) {
        this.sensors = sensors;
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
