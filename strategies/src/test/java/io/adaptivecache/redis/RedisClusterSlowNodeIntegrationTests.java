package io.adaptivecache.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.DecisionReason;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisCluster;
import io.adaptivecache.testservers.RedisClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One master stalled (SIGSTOP for 600 ms, under the cluster's 1 s node timeout, so no failover)
 * while 16 threads read and write keys on every master: the stall shows in that node's figures,
 * and the switcher calls the windows disturbed by that node rather than acting on them.
 */
class RedisClusterSlowNodeIntegrationTests {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @RegisterExtension
    final ClusterLoad load = new ClusterLoad(16);

    @Test
    void aStalledMasterShouldShowInItsOwnFiguresAndDisturbTheSwitchersWindowsByName() throws Exception {
        RedisCluster cluster = redis.cluster();
        RedisServer slow = cluster.masters().get(1);
        List<String> keys = new ArrayList<>();
        for (RedisServer master : cluster.masters()) {
            for (int i = 0; i < 10; i++) {
                keys.add(cluster.keyOn(master, "slow:" + i + ":"));
            }
        }
        this.load.template = RedisClusterCacheTemplates.builder().nodes(cluster.seedAddresses().split(","))
                .strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)).commandTimeout(Duration.ofSeconds(3)).start();
        byte[] value = new byte[100];
        keys.forEach(key -> this.load.template.set(key, value, Duration.ZERO));
        List<SwitchEvent> switches = new CopyOnWriteArrayList<>();
        this.load.startSwitcher(20, Duration.ofMillis(200), switches);
        LongAdder calls = new LongAdder();
        List<String> failures = new CopyOnWriteArrayList<>();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        List<Future<?>> workers = this.load.submitCallers(1_000_000, deadline, keys,
                value, calls, (key, ex) -> {
                    if (failures.size() < 10) {
                        failures.add(key + ": " + ex);
                    }
                });
        await("load to run").atMost(Duration.ofSeconds(20)).until(() -> calls.sum() > 2_000);

        List<Decision> disturbedBySlowNode = new CopyOnWriteArrayList<>();
        String slowNodeEvidence = "node " + slow.address() + " is slow";
        for (int stall = 0; stall < 3 && disturbedBySlowNode.isEmpty(); stall++) {
            this.load.frozen = slow;
            slow.freeze();
            long stalledUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(600);
            await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(20)).until(() -> System.nanoTime() >= stalledUntil);
            slow.thaw();
            this.load.frozen = null;
            // The window holding the stall closes within two windows of the thaw; a stall that a
            // busy machine smeared over two windows gets another try.
            try {
                await("the switcher to judge the stalled windows").atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(20))
                        .until(() -> {
                            Decision decision = this.load.switcher.state().lastDecision();
                            if (decision != null && decision.evidence().contains(slowNodeEvidence)) {
                                disturbedBySlowNode.add(decision);
                                return true;
                            }
                            return false;
                        });
            }
            catch (org.awaitility.core.ConditionTimeoutException notThisTime) {
                // judged below: three stalls without one such window fail the test
            }
        }
        this.load.stop.set(true);
        for (Future<?> worker : workers) {
            worker.get(30, TimeUnit.SECONDS);
        }

        assertThat(failures).as("a 600 ms stall is under the 3 s command timeout").isEmpty();
        assertThat(disturbedBySlowNode).isNotEmpty().allSatisfy(decision -> {
            assertThat(decision.reason()).isEqualTo(DecisionReason.DISTURBED);
            assertThat(decision.isSwitch()).isFalse();
        });
        assertThat(switches).isEmpty();
        assertThat(this.load.template.nodes().orElseThrow().sensors().figures()).anySatisfy(node -> {
            assertThat(node.address()).isEqualTo(slow.address());
            assertThat(node.errors()).isZero();
        });
    }
}
