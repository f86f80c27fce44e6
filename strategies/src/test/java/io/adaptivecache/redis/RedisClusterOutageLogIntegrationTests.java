package io.adaptivecache.redis;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisCluster;
import io.adaptivecache.testservers.RedisClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the logs say while a killed master stays down after its replica took over: every WARN
 * line, from this project's loggers and Lettuce's at their default levels, counted. slf4j-simple
 * writes every logger's lines to System.err, so a copy of System.err is the capture. The cluster
 * is this class's own: the test leaves it with a dead node.
 */
class RedisClusterOutageLogIntegrationTests {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    /** The periodic topology refresh, set explicitly: the bound below holds for a window shorter than it. */
    private static final Duration REFRESH_PERIOD = Duration.ofSeconds(30);

    /** How long the dead node is watched after the template saw its replica take over. */
    private static final Duration AFTER_TAKEOVER = Duration.ofSeconds(12);

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final AtomicBoolean stop = new AtomicBoolean();
    private PrintStream originalErr;
    private ManagedCacheTemplate template;
    private Thread load;

    @AfterEach
    void restore() throws InterruptedException {
        if (this.originalErr != null) {
            System.setErr(this.originalErr);
        }
        this.stop.set(true);
        if (this.load != null) {
            this.load.join(TimeUnit.SECONDS.toMillis(10));
        }
        if (this.template != null) {
            this.template.close();
        }
    }

    @Test
    void aMasterThatStaysDownAfterItsReplicaTookOverShouldBeLoggedOnceAndThenNoMore() {
        RedisCluster cluster = redis.cluster();
        RedisServer victim = cluster.masters().get(0);
        RedisServer heir = cluster.replicaOf(victim);
        List<String> keys = new ArrayList<>();
        cluster.masters().forEach(master -> keys.add(cluster.keyOn(master, "outage-log:")));
        // Two cluster connections, so that each keeps its own connection to the victim, as with any MULTI.
        this.template = RedisClusterCacheTemplates.builder().nodes(cluster.seedAddresses().split(","))
                .strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)).topologyRefreshPeriod(REFRESH_PERIOD).start();
        // Lettuce opens a cluster connection's connection to a node at its first call there: every key on both cluster
        // connections (round robin), so that each holds a connection to the victim when it dies, as under any load.
        for (int round = 0; round < 4; round++) {
            keys.forEach(this.template::get);
        }
        // A light load on every master's keys, bounded by a count and the stop flag: calls are what find the dead node.
        this.load = new Thread(() -> {
            for (int i = 0; i < 20_000 && !this.stop.get(); i++) {
                try {
                    this.template.get(keys.get(i % keys.size()));
                }
                catch (RuntimeException ex) {
                    // The dead master's keys fail until its replica takes over; the node breaker counts them.
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }, "outage-log-load");
        this.load.start();
        capture();

        victim.kill();
        long killedAt = System.nanoTime();
        String over = "Redis Cluster node " + victim.address() + " outage over";
        await("the template to see " + heir.address() + " take over").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20)).until(() -> captured().contains(over));
        long takenOverAt = System.nanoTime();
        // A moment for a refresh or reconnect already under way when the topology changed to end.
        int windowStart = captured().length();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
        windowStart = Math.max(windowStart, captured().length());
        LockSupport.parkNanos(AFTER_TAKEOVER.toNanos());
        String all = captured();
        System.setErr(this.originalErr);

        List<String> warnings = warnings(all);
        List<String> afterTakeover = warnings(all.substring(windowStart));
        System.out.printf("outage log: killed -> taken over %d ms; WARN lines during the outage by logger %s;"
                + " in the %d s after it by logger %s%n", TimeUnit.NANOSECONDS.toMillis(takenOverAt - killedAt),
                byLogger(warnings(all.substring(0, windowStart))), AFTER_TAKEOVER.toSeconds(), byLogger(afterTakeover));

        List<String> ours = warnings.stream().filter(line -> line.contains(" io.adaptivecache.")).toList();
        assertThat(ours).as("this project's WARN lines: once when the node stopped answering, once when its slots moved")
                .hasSize(2);
        assertThat(ours.get(0)).contains("NodeBreaker").contains(victim.address()).contains("did not answer");
        assertThat(ours.get(1)).contains(over).contains("served by " + heir.address());
        // Without the node filter, Lettuce reconnects to the dead node (a ConnectionWatchdog WARN per cluster connection
        // every 5 s) and each failed reconnect triggers a topology refresh that tries it again (a
        // DefaultClusterTopologyRefresh WARN every 2 s): about ten lines here. What is left is the periodic refresh's
        // attempt on the node the cluster still lists, at most once in a window shorter than its period.
        assertThat(afterTakeover).as("WARN lines, any logger, in the %d s after the takeover", AFTER_TAKEOVER.toSeconds())
                .hasSizeLessThanOrEqualTo(1)
                .allMatch(line -> line.contains("DefaultClusterTopologyRefresh") && line.contains(":" + victim.port()));
        assertThat(this.template.get(cluster.keyOn(heir, "outage-log:after:"))).as("the heir serves the slots").isNull();
    }

    private void capture() {
        this.originalErr = System.err;
        PrintStream original = this.originalErr;
        System.setErr(new PrintStream(new OutputStream() {

            @Override
            public void write(int b) {
                synchronized (RedisClusterOutageLogIntegrationTests.this.log) {
                    original.write(b);
                    RedisClusterOutageLogIntegrationTests.this.log.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (RedisClusterOutageLogIntegrationTests.this.log) {
                    original.write(b, off, len);
                    RedisClusterOutageLogIntegrationTests.this.log.write(b, off, len);
                }
            }
        }, true, StandardCharsets.UTF_8));
    }

    private String captured() {
        synchronized (this.log) {
            return this.log.toString(StandardCharsets.UTF_8);
        }
    }

    /** slf4j-simple's lines at WARN: {@code <millis> [thread] WARN logger - message}. */
    private static List<String> warnings(String log) {
        return log.lines().filter(line -> line.matches("^\\d+ \\[[^]]*\\] WARN .*")).toList();
    }

    private static Map<String, Integer> byLogger(List<String> warnings) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : warnings) {
            String logger = line.replaceFirst("^\\d+ \\[[^]]*\\] WARN (\\S+) .*$", "$1");
            counts.merge(logger.substring(logger.lastIndexOf('.') + 1), 1, Integer::sum);
        }
        return counts;
    }
}
