package io.adaptivecache.testservers;

import io.adaptivecache.devservers.RedisServer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Checks {@link RedisCluster} against real {@code redis-server} processes. The failover test
 * kills a master, so it runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterIntegrationTests {

    @RegisterExtension
    static final RedisClusterExtension redisCluster = new RedisClusterExtension();

    @Test
    @Order(1)
    void formsThreeMastersWithOneReplicaEach() {
        RedisCluster cluster = redisCluster.cluster();
        assertThat(cluster.nodes()).hasSize(6);
        assertThat(cluster.masters()).hasSize(3);
        assertThat(cluster.replicas()).hasSize(3);
        Set<RedisServer> replicasOfMasters = new HashSet<>();
        for (RedisServer master : cluster.masters()) {
            replicasOfMasters.add(cluster.replicaOf(master));
        }
        assertThat(replicasOfMasters).containsExactlyInAnyOrderElementsOf(cluster.replicas());
        assertThat(redisCluster.seedUris()).hasSize(6).allMatch(uri -> uri.startsWith("redis://127.0.0.1:"));
        assertThat(cluster.seedAddresses().split(",")).hasSize(6);
        // Every node, not only the one masters() asks, already knows which three are replicas: a node
        // that still lists a replica as a master without slots would give a test four "masters".
        for (RedisServer node : cluster.nodes()) {
            assertThat(node.command("CLUSTER", "NODES").lines().filter(line -> line.contains("master")).toList())
                    .as("masters as %s sees them", node.address()).hasSize(3)
                    .allSatisfy(line -> assertThat(line.split(" ")).hasSizeGreaterThan(8));
        }
    }

    @Test
    @Order(2)
    void computesTheSameSlotsAsRedis() {
        RedisServer node = redisCluster.cluster().nodes().get(0);
        for (String key : List.of("", "foo", "bar", "user:1000", "{user1000}.following", "foo{}{bar}", "foo{{bar}}zap", "a{b}c{d}")) {
            assertThat(RedisCluster.slotOf(key)).as(key).isEqualTo(Integer.parseInt(node.command("CLUSTER", "KEYSLOT", key)));
        }
    }

    @Test
    @Order(3)
    void keyOnGivesKeysThatTheirMasterServes() {
        RedisCluster cluster = redisCluster.cluster();
        for (RedisServer master : cluster.masters()) {
            String key = cluster.keyOn(master, "key:");
            assertThat(cluster.masterOf(key)).isSameAs(master);
            assertThat(master.command("SET", key, "value")).isEqualTo("OK");
            assertThat(master.command("GET", key)).isEqualTo("value");
            RedisServer other = cluster.masters().stream().filter(node -> node != master).findFirst().orElseThrow();
            assertThatThrownBy(() -> other.command("GET", key)).hasMessageContaining("MOVED");
        }
    }

    @Test
    @Order(4)
    void failsOverAKilledMasterToItsReplica() {
        RedisCluster cluster = redisCluster.cluster();
        RedisServer master = cluster.masters().get(0);
        RedisServer replica = cluster.replicaOf(master);
        String key = cluster.keyOn(master, "failover:");

        master.kill();
        cluster.awaitFailoverOf(master, Duration.ofSeconds(20));

        assertThat(cluster.masters()).hasSize(3).contains(replica).doesNotContain(master);
        assertThat(cluster.replicas()).hasSize(2);
        assertThat(cluster.masterOf(key)).isSameAs(replica);
        assertThat(replica.command("SET", key, "after failover")).isEqualTo("OK");

        // Back on its port with its nodes.conf, the old master rejoins as the new one's replica.
        master.restart();
        cluster.awaitHealthy(Duration.ofSeconds(30));
        assertThat(cluster.replicaOf(replica)).isSameAs(master);
        assertThat(cluster.masters()).hasSize(3);
        assertThat(cluster.replicas()).hasSize(3);
    }
}
