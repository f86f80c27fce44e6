package io.adaptivecache.redis;

import java.util.Map;
import java.util.stream.Collectors;

import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which nodes of {@code CLUSTER NODES} the template's client keeps in its topology: a failed
 * node that serves no slot is dropped (so that Lettuce stops reconnecting to it), every other
 * node is kept.
 */
class RedisClusterTopologyFilterTests {

    // After 127.0.0.1:7000 died and its replica 127.0.0.1:7003 took over; 127.0.0.1:7002 has failed with its slots
    // (no replica took over), 127.0.0.1:7005 is only suspected (fail?) and 127.0.0.1:7004, a replica, has failed.
    private static final String NODES = """
            a000000000000000000000000000000000000000 127.0.0.1:7000@17000 master,fail - 1700000000000 1700000000000 1 disconnected
            a111111111111111111111111111111111111111 127.0.0.1:7001@17001 myself,master - 0 0 2 connected 5461-10922
            a222222222222222222222222222222222222222 127.0.0.1:7002@17002 master,fail - 1700000000000 1700000000000 3 disconnected 10923-16383
            a333333333333333333333333333333333333333 127.0.0.1:7003@17003 master - 0 1700000000000 4 connected 0-5460
            a444444444444444444444444444444444444444 127.0.0.1:7004@17004 slave,fail a111111111111111111111111111111111111111 1700000000000 1700000000000 2 disconnected
            a555555555555555555555555555555555555555 127.0.0.1:7005@17005 slave,fail? a333333333333333333333333333333333333333 0 1700000000000 4 connected
            """;

    @Test
    void aFailedNodeWithoutSlotsShouldBeDroppedAndEveryOtherNodeKept() {
        Map<Integer, Boolean> kept = ClusterPartitionParser.parse(NODES).stream()
                .collect(Collectors.toMap(node -> node.getUri().getPort(), RedisClusterCacheTemplates::belongsInTopology));
        assertThat(kept).containsExactlyInAnyOrderEntriesOf(Map.of(7000, false, 7001, true, 7002, true, 7003, true, 7004, false,
                7005, true));
    }

    @Test
    void aNodeWithoutSlotsThatHasNotFailedShouldBeKept() {
        RedisClusterNode replica = ClusterPartitionParser.parse(
                "a555555555555555555555555555555555555555 127.0.0.1:7005@17005 slave a333333333333333333333333333333333333333 0 0 4 connected\n")
                .getPartition(0);
        assertThat(RedisClusterCacheTemplates.belongsInTopology(replica)).isTrue();
    }
}
