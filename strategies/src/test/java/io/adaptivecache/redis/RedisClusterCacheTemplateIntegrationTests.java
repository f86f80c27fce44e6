package io.adaptivecache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.contract.CacheTemplateContract;
import io.adaptivecache.contract.Strategies;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.metrics.NodeFigures;
import io.adaptivecache.metrics.NodeSensors;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisCluster;
import io.adaptivecache.testservers.RedisClusterExtension;
import io.lettuce.core.ReadFrom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The cache contract on a local three-master, three-replica Redis Cluster, for every strategy,
 * plus what only a cluster does: keys on every master, multi-gets across nodes, CAS on each
 * master's node, figures per node.
 */
class RedisClusterCacheTemplateIntegrationTests extends CacheTemplateContract {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    @Override
    protected ManagedCacheTemplate startTemplate(StrategySpec strategy) {
        return RedisClusterCacheTemplates.builder().nodes(redis.cluster().seedAddresses().split(",")).strategy(strategy).start();
    }

    /**
     * All nodes together: a cluster connection opens its first socket to whichever node it
     * picks, and further ones to each node as keys need them.
     */
    @Override
    protected List<Integer> serverConnections() {
        return List.of(redis.cluster().nodes().stream().mapToInt(RedisServer::connectedClients).sum());
    }

    /** Keys of this test, one on each master. */
    private List<String> keyOnEachMaster(String name) {
        List<String> keys = new ArrayList<>();
        for (RedisServer master : redis.cluster().masters()) {
            keys.add(redis.cluster().keyOn(master, key(name)));
        }
        return keys;
    }

    @Strategies.All
    void everyOperationShouldWorkOnEveryMaster(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        List<String> keys = keyOnEachMaster("op-");
        assertThat(keys.stream().map(key -> redis.cluster().masterOf(key).port()).collect(Collectors.toSet())).hasSize(3);

        for (String key : keys) {
            cache.set(key, "v", Duration.ZERO);
            assertThat(cache.get(key)).isEqualTo("v");
            assertThat(cache.add(key, "w", Duration.ZERO)).isFalse();
            assertThat(cache.replace(key, "w", Duration.ofMinutes(1))).isTrue();
            assertThat(cache.get(key)).isEqualTo("w");
            assertThat(cache.touch(key, Duration.ZERO)).isTrue();
            CasValue<String> read = cache.gets(key);
            assertThat(cache.cas(key, read.token(), "x", Duration.ZERO)).isEqualTo(CasResult.STORED);
            assertThat(cache.cas(key, read.token(), "y", Duration.ZERO)).as("the token is spent").isEqualTo(CasResult.EXISTS);
            assertThat(cache.get(key)).isEqualTo("x");
            assertThat(cache.delete(key)).isTrue();
            assertThat(cache.cas(key, read.token(), "z", Duration.ZERO)).isEqualTo(CasResult.NOT_FOUND);
            assertThat(cache.incr(key, 5)).isEqualTo(5);
            assertThat(cache.decr(key, 2)).isEqualTo(3);
            assertThat(cache.delete(key)).isTrue();
        }
    }

    @Strategies.All
    void getAllShouldGatherKeysFromEveryNodeInTheCallersOrder(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            keys.add(key("many-" + i));
        }
        assertThat(keys.stream().map(key -> redis.cluster().masterOf(key).port()).distinct()).hasSize(3);
        Map<String, String> expected = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            if (i % 3 != 1) {
                cache.set(keys.get(i), "v" + i, Duration.ZERO);
                expected.put(keys.get(i), "v" + i);
            }
        }
        List<String> reversed = new ArrayList<>(keys);
        java.util.Collections.reverse(reversed);

        Map<String, String> found = cache.getAll(reversed);

        Map<String, String> expectedInCallersOrder = new LinkedHashMap<>();
        reversed.stream().filter(expected::containsKey).forEach(key -> expectedInCallersOrder.put(key, expected.get(key)));
        assertThat(found).containsExactlyEntriesOf(expectedInCallersOrder);
    }

    @Test
    void keysWithOneHashTagShouldLiveOnOneNode() {
        CacheOperations<String> cache = start(StrategySpec.single());
        String tag = "{" + prefix + "user42}";

        cache.set(tag + ":profile", "p", Duration.ZERO);
        cache.set(tag + ":cart", "c", Duration.ZERO);

        assertThat(redis.cluster().masterOf(tag + ":profile").port()).isEqualTo(redis.cluster().masterOf(tag + ":cart").port());
        assertThat(cache.getAll(List.of(tag + ":cart", tag + ":profile"))).containsExactly(Map.entry(tag + ":cart", "c"),
                Map.entry(tag + ":profile", "p"));
    }

    @Strategies.All
    void callsShouldBeCountedAgainstTheMasterOfTheirKey(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        List<RedisServer> masters = redis.cluster().masters();
        for (RedisServer master : masters) {
            for (int i = 0; i <= masters.indexOf(master); i++) {
                cache.set(redis.cluster().keyOn(master, key("count-" + i + "-")), "v", Duration.ZERO);
            }
        }
        cache.getAll(keyOnEachMaster("count-0-")); // spans nodes: not attributed

        NodeSensors nodes = template.nodes().orElseThrow().sensors();
        Map<Integer, Long> callsByPort = nodes.figures().stream()
                .collect(Collectors.toMap(figures -> port(figures.address()), NodeFigures::calls));
        Map<Integer, Long> expected = masters.stream()
                .collect(Collectors.toMap(RedisServer::port, master -> (long) masters.indexOf(master) + 1));
        assertThat(callsByPort).isEqualTo(expected);
        assertThat(nodes.figures()).allSatisfy(figures -> {
            assertThat(figures.errors()).isZero();
            assertThat(figures.meanLatencyNanos()).isPositive();
        });
    }

    @Test
    void readsFromReplicasShouldSeeWhatWasWritten() {
        template = RedisClusterCacheTemplates.builder().nodes(redis.cluster().seedAddresses().split(","))
                .readFrom(ReadFrom.REPLICA).strategy(StrategySpec.single()).start();
        CacheOperations<String> cache = template.withCodec(io.adaptivecache.ValueCodec.utf8());
        List<String> keys = keyOnEachMaster("replica-");
        keys.forEach(key -> cache.set(key, "v", Duration.ZERO));
        long masterReadsBefore = mgetCalls(redis.cluster().masters());
        long replicaReadsBefore = mgetCalls(redis.cluster().replicas());

        // Replication is asynchronous: a replica sees a write a moment later.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(cache.getAll(keys)).hasSize(3));
        assertThat(mgetCalls(redis.cluster().replicas())).isGreaterThan(replicaReadsBefore);
        assertThat(mgetCalls(redis.cluster().masters())).as("no read went to a master").isEqualTo(masterReadsBefore);
    }

    @Test
    void aClusterWithoutReachableNodesShouldFailToStartWithTheSeedsInTheMessage() {
        assertThatThrownBy(() -> RedisClusterCacheTemplates.builder().nodes("127.0.0.1:1").connectTimeout(Duration.ofMillis(200))
                .strategy(StrategySpec.single()).start()).isInstanceOf(io.adaptivecache.CacheConnectionException.class)
                .hasMessageContaining("redis-cluster://127.0.0.1:1");
        assertThatThrownBy(() -> RedisClusterCacheTemplates.builder().nodes("not a node:x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Malformed Redis Cluster node");
        assertThatThrownBy(() -> RedisClusterCacheTemplates.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No Redis Cluster nodes");
    }

    @Test
    void overLongKeysShouldFailBeforeAnythingIsSentAndLeaveTheTemplateUsable() {
        CacheOperations<String> cache = start(StrategySpec.multi(2, io.adaptivecache.strategy.SelectorType.ROUND_ROBIN));
        String key = keyOnEachMaster("kept-").get(0);
        cache.set(key, "kept", Duration.ZERO);

        assertThatThrownBy(() -> cache.set("k".repeat(16 * 1024 + 1), "v", Duration.ZERO))
                .isInstanceOf(io.adaptivecache.InvalidCacheInputException.class);
        assertThatThrownBy(() -> cache.getAll(List.of(key, key))).isInstanceOf(io.adaptivecache.InvalidCacheInputException.class);

        assertThat(cache.get(key)).isEqualTo("kept");
        assertThat(new String(template.get(key), StandardCharsets.UTF_8)).isEqualTo("kept");
    }

    @Test
    void theCommandsToEveryNodeShouldBeCountedWithTheirSocketWrites() {
        try (ManagedCacheTemplate template = startTemplate(StrategySpec.single())) {
            List<String> keys = keyOnEachMaster("writes-");
            keys.forEach(key -> template.set(key, new byte[] {1}, Duration.ZERO));
            RedisWrites before = RedisWrites.of(template).orElseThrow();

            for (int round = 0; round < 10; round++) {
                keys.forEach(template::get);
            }

            // At least the 30 reads (the cluster connection may refresh its view of the topology meanwhile), each sent
            // on the channel to its node.
            RedisWrites sent = RedisWrites.of(template).orElseThrow().since(before);
            assertThat(sent.commands()).isGreaterThanOrEqualTo(30);
            assertThat(sent.writes()).isBetween(1L, sent.commands());
        }
    }

    private static long mgetCalls(List<RedisServer> servers) {
        long calls = 0;
        for (RedisServer server : servers) {
            try {
                calls += Long.parseLong(server.info("commandstats", "cmdstat_mget").replaceAll("^calls=(\\d+),.*$", "$1"));
            }
            catch (IllegalStateException absent) {
                // never called on this server
            }
        }
        return calls;
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    static Set<Integer> ports(List<RedisServer> servers) {
        return servers.stream().map(RedisServer::port).collect(Collectors.toSet());
    }
}
