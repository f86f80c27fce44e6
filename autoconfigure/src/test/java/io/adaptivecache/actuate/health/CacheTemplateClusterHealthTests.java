package io.adaptivecache.actuate.health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.autoconfigure.AdaptiveCacheSwitchers;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisClusterCacheTemplates;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisCluster;
import io.adaptivecache.testservers.RedisClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster template's health looks at every master, on a real three-master cluster whose
 * masters are frozen (SIGSTOP) one and then all. The node timeout is 15 s, so no failover
 * changes the masters while they are frozen.
 */
class CacheTemplateClusterHealthTests {

    @RegisterExtension
    static final RedisClusterExtension redis = RedisClusterExtension.withNodeTimeout(Duration.ofSeconds(15));

    private final List<RedisServer> frozen = new ArrayList<>();
    private ManagedCacheTemplate template;

    @AfterEach
    void thawAndClose() {
        this.frozen.forEach(RedisServer::thaw);
        if (this.template != null) {
            this.template.close();
        }
    }

    @Test
    void healthShouldAskEveryMasterReportOneFrozenMasterAsDegradedAndBeDownOnlyWhenNoneAnswers() {
        RedisCluster cluster = redis.cluster();
        await("three masters").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> cluster.masters().size() == 3);
        List<RedisServer> masters = cluster.masters();
        this.template = RedisClusterCacheTemplates.builder().nodes(cluster.seedAddresses().split(","))
                .strategy(StrategySpec.single()).commandTimeout(Duration.ofSeconds(1)).start();
        CacheTemplateHealthIndicator indicator = new CacheTemplateHealthIndicator(this.template,
                new AdaptiveCacheSwitchers(java.util.List.of(), event -> {
                }));

        Health healthy = indicator.health();
        assertThat(healthy.getStatus()).isEqualTo(Status.UP);
        assertThat(healthy.getDetails()).doesNotContainKey("degraded");
        Map<String, Map<String, Object>> nodes = nodes(healthy);
        assertThat(nodes).containsOnlyKeys(masters.stream().map(RedisServer::address).toList());
        assertThat(nodes.values()).allSatisfy(node -> {
            assertThat(node).containsEntry("status", "UP").containsEntry("role", "master").containsEntry("circuitBreaker", "CLOSED");
        });
        assertThat(nodes.values().stream().mapToInt(node -> (Integer) node.get("slots")).sum()).isEqualTo(RedisCluster.SLOTS);

        // The master of the key the single-server check reads: that check would call the whole template DOWN.
        RedisServer victim = cluster.masterOf("adaptive-cache:health");
        freeze(victim);
        // Calls for its keys time out until its breaker opens.
        String victimKey = cluster.keyOn(victim, "health:");
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(this.template.getAsync(victimKey));
        }
        calls.forEach(call -> call.handle((value, failure) -> null).join());

        Health degraded = indicator.health();
        assertThat(degraded.getStatus()).as("one frozen master of three: %s", degraded).isEqualTo(Status.UP);
        assertThat((String) degraded.getDetails().get("degraded")).contains("1 of 3 masters").contains(victim.address());
        Map<String, Map<String, Object>> degradedNodes = nodes(degraded);
        assertThat(degradedNodes.get(victim.address())).containsEntry("status", "DOWN")
                .containsEntry("reason", "no answer to PING within 1000 ms");
        // OPEN, or HALF_OPEN if its second of refusing calls ended before the check read it.
        assertThat(degradedNodes.get(victim.address()).get("circuitBreaker")).isIn("OPEN", "HALF_OPEN");
        masters.stream().filter(master -> master != victim).forEach(master -> assertThat(degradedNodes.get(master.address()))
                .containsEntry("status", "UP").containsEntry("circuitBreaker", "CLOSED"));

        masters.stream().filter(master -> master != victim).forEach(this::freeze);
        Health down = indicator.health();
        assertThat(down.getStatus()).as("no master answers: %s", down).isEqualTo(Status.DOWN);
        assertThat(nodes(down).values()).allSatisfy(node -> assertThat(node).containsEntry("status", "DOWN"));

        this.frozen.forEach(RedisServer::thaw);
        this.frozen.clear();
        await("every master to answer again").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> indicator.health().getDetails().get("degraded") == null
                        && indicator.health().getStatus().equals(Status.UP));
    }

    private void freeze(RedisServer master) {
        this.frozen.add(master);
        master.freeze();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> nodes(Health health) {
        return (Map<String, Map<String, Object>>) health.getDetails().get("nodes");
    }
}
