package io.adaptivecache.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.DecisionReason;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.metrics.NodeFigures;
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
 * A master killed (SIGKILL) under 32 threads of reads and writes, with the adaptive switcher
 * watching. The cluster is this class's own: the test leaves it with a dead node.
 */
class RedisClusterFailoverIntegrationTests {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    private static final int THREADS = 32;
    private static final int KEYS_PER_MASTER = 20;
    private static final Duration LIMIT = Duration.ofSeconds(90);
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(10);

    @RegisterExtension
    final ClusterLoad load = new ClusterLoad(THREADS);
    // Lettuce's and this project's log lines go to System.err (slf4j-simple): a copy to count them.
    private final java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
    private java.io.PrintStream originalErr;

    @org.junit.jupiter.api.BeforeEach
    void captureLog() {
        this.originalErr = System.err;
        java.io.OutputStream tee = new java.io.OutputStream() {

            @Override
            public synchronized void write(int b) {
                RedisClusterFailoverIntegrationTests.this.originalErr.write(b);
                RedisClusterFailoverIntegrationTests.this.log.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                RedisClusterFailoverIntegrationTests.this.originalErr.write(b, off, len);
                RedisClusterFailoverIntegrationTests.this.log.write(b, off, len);
            }
        };
        System.setErr(new java.io.PrintStream(tee, true, java.nio.charset.StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreErr() {
        System.setErr(this.originalErr);
    }

    @Test
    void aKilledMasterShouldFailOnlyItsOwnSlotsAndOnlyUntilItsReplicaIsPromoted() throws Exception {
        RedisCluster cluster = redis.cluster();
        RedisServer victim = cluster.masters().get(0);
        RedisServer heir = cluster.replicaOf(victim);
        List<String> keys = new ArrayList<>();
        Set<String> victimKeys = new java.util.HashSet<>();
        for (RedisServer master : cluster.masters()) {
            for (int i = 0; i < KEYS_PER_MASTER; i++) {
                String key = cluster.keyOn(master, "failover:" + i + ":");
                keys.add(key);
                if (master == victim) {
                    victimKeys.add(key);
                }
            }
        }
        List<RedisServer> survivors = cluster.nodes().stream().filter(node -> node != victim).toList();
        Map<RedisServer, Integer> baseline = connections(survivors);

        this.load.template = RedisClusterCacheTemplates.builder().nodes(cluster.seedAddresses().split(","))
                .strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)).commandTimeout(Duration.ofSeconds(3))
                .topologyRefreshPeriod(Duration.ofSeconds(1)).start();
        byte[] value = new byte[100];
        keys.forEach(key -> this.load.template.set(key, value, Duration.ZERO));
        List<SwitchEvent> switches = new CopyOnWriteArrayList<>();
        this.load.startSwitcher(50, Duration.ofMillis(250), switches);

        LongAdder calls = new LongAdder();
        LongAdder victimFailures = new LongAdder();
        java.util.concurrent.atomic.AtomicReference<String> victimFailure = new java.util.concurrent.atomic.AtomicReference<>();
        List<String> survivorFailures = new CopyOnWriteArrayList<>();
        List<String> failuresAfterRecovery = new CopyOnWriteArrayList<>();
        AtomicLong promotedAt = new AtomicLong();
        AtomicLong recoveredAt = new AtomicLong();
        AtomicLong steadyFrom = new AtomicLong(Long.MAX_VALUE);
        AtomicLong killedAtNanos = new AtomicLong(Long.MAX_VALUE);
        AtomicLong firstVictimSuccessAfterKill = new AtomicLong();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            workers.add(this.load.executor.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                // Bounded by the stop flag, the deadline and a count.
                for (int i = 0; i < 2_000_000 && !this.load.stop.get() && System.nanoTime() < deadline; i++) {
                    String key = keys.get(random.nextInt(keys.size()));
                    long started = System.nanoTime();
                    try {
                        if (random.nextInt(5) == 0) {
                            this.load.template.set(key, value, Duration.ZERO);
                        }
                        else {
                            this.load.template.get(key);
                        }
                        calls.increment();
                        if (victimKeys.contains(key) && started > killedAtNanos.get()) {
                            firstVictimSuccessAfterKill.compareAndSet(0, System.nanoTime());
                        }
                        if (victimKeys.contains(key) && promotedAt.get() != 0 && started > promotedAt.get()) {
                            recoveredAt.compareAndSet(0, System.nanoTime());
                        }
                    }
                    catch (RuntimeException ex) {
                        String failure = key + ": " + ex;
                        if (started > steadyFrom.get()) {
                            addBounded(failuresAfterRecovery, failure);
                        }
                        if (victimKeys.contains(key)) {
                            victimFailures.increment();
                            victimFailure.compareAndSet(null, ex.getMessage());
                        }
                        else {
                            addBounded(survivorFailures, failure);
                        }
                    }
                }
            }));
        }
        Set<DecisionReason> reasonsDuringOutage = Collections.synchronizedSet(EnumSet.noneOf(DecisionReason.class));
        AtomicBoolean outageOver = new AtomicBoolean();
        Thread decisionWatcher = new Thread(() -> {
            // A sampling period, bounded by the deadline: the switcher decides every 250 ms.
            while (!outageOver.get() && System.nanoTime() < deadline) {
                Decision decision = this.load.switcher.state().lastDecision();
                if (decision != null) {
                    reasonsDuringOutage.add(decision.reason());
                }
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }, "decision-watcher");
        decisionWatcher.setDaemon(true);
        await("load to run").atMost(Duration.ofSeconds(20)).until(() -> calls.sum() > 5_000);

        decisionWatcher.start();
        // When the heir calls itself master, read from the heir every 10 ms (awaitFailoverOf below also waits for
        // the whole cluster to agree, which comes later): the start of the recovery time the README gives.
        AtomicLong heirPromotedAt = new AtomicLong();
        Thread promotionWatcher = new Thread(() -> {
            while (heirPromotedAt.get() == 0 && System.nanoTime() < deadline) {
                try {
                    if ("master".equals(heir.info("replication", "role"))) {
                        heirPromotedAt.set(System.nanoTime());
                    }
                }
                catch (RuntimeException ex) {
                    // not answering right now
                }
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }, "promotion-watcher");
        promotionWatcher.setDaemon(true);
        promotionWatcher.start();
        victim.kill();
        long killedAt = System.nanoTime();
        killedAtNanos.set(killedAt);
        cluster.awaitFailoverOf(victim, Duration.ofSeconds(30));
        promotedAt.set(System.nanoTime());
        await("a call on the failed slots to succeed after the promotion").atMost(RECOVERY_BOUND)
                .pollInterval(Duration.ofMillis(20)).until(() -> recoveredAt.get() != 0);
        outageOver.set(true);
        decisionWatcher.join(TimeUnit.SECONDS.toMillis(5));
        // A moment for calls already in flight to the dead node to end; every call after it must succeed.
        steadyFrom.set(System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
        long callsBeforeSteady = calls.sum();
        await("two seconds of steady load").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> System.nanoTime() - steadyFrom.get() > TimeUnit.SECONDS.toNanos(2)
                        && calls.sum() > callsBeforeSteady + 2_000);
        this.load.stop.set(true);
        for (Future<?> worker : workers) {
            worker.get(30, TimeUnit.SECONDS);
        }

        assertThat(survivorFailures).as("calls on the surviving masters' slots").isEmpty();
        assertThat(victimFailures.sum()).as("calls on the dead master's slots failed while it was down").isPositive();
        assertThat(failuresAfterRecovery).as("calls from a second after recovery").isEmpty();
        assertThat(Duration.ofNanos(recoveredAt.get() - promotedAt.get())).isLessThan(RECOVERY_BOUND);
        assertThat(switches).as("the switcher must not switch because of a failover").isEmpty();
        assertThat(reasonsDuringOutage).as("windows judged during the outage").contains(DecisionReason.DISTURBED);
        Map<Integer, NodeFigures> byPort = new HashMap<>();
        this.load.template.nodes().orElseThrow().sensors().figures()
                .forEach(figures -> byPort.put(Integer.parseInt(figures.address().replaceAll(".*:", "")), figures));
        assertThat(byPort.get(victim.port()).errors()).as("the dead master's failures, in its own figures").isPositive();
        assertThat(byPort.get(heir.port()).calls()).as("the promoted replica serves the slots").isPositive();
        // The figures place a call by the topology the template last read, so a call still on its way to the dead
        // master as that view moves to the heir counts for the heir: a handful at the handover, never a steady share.
        assertThat(byPort.get(heir.port()).errors()).as("the heir's failures, all at the handover")
                .isLessThanOrEqualTo(Math.max(5, byPort.get(heir.port()).calls() / 1000));
        assertThat(this.load.template.stats().openConnections()).isEqualTo(2);
        assertThat(victimFailure.get()).as("a failure on the dead slots names the dead node and the slot, not the seeds")
                .contains("node " + victim.address() + " (slot ").doesNotContain("redis-cluster://");
        // Once per outage: one WARN when the dead node's breaker opened, one when its slots moved to the heir.
        List<String> lines = this.log.toString(java.nio.charset.StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("NodeBreaker") && line.contains(victim.address())).toList();
        assertThat(lines).as("the node breaker's lines about %s", victim.address()).hasSize(2);
        assertThat(lines.get(0)).contains("WARN").contains("did not answer");
        assertThat(lines.get(1)).contains("WARN").contains("outage over").contains("served by " + heir.address());
        promotionWatcher.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(heirPromotedAt.get()).as("the heir was seen calling itself master").isPositive();
        System.out.printf("failover: killed -> heir is master %d ms, heir is master -> first success on the dead slots %d ms"
                + " (killed -> cluster agrees %d ms, -> a call started after that succeeds %d ms later), %d calls,"
                + " %d failed on the dead slots%n",
                TimeUnit.NANOSECONDS.toMillis(heirPromotedAt.get() - killedAt),
                TimeUnit.NANOSECONDS.toMillis(firstVictimSuccessAfterKill.get() - heirPromotedAt.get()),
                TimeUnit.NANOSECONDS.toMillis(promotedAt.get() - killedAt),
                TimeUnit.NANOSECONDS.toMillis(recoveredAt.get() - promotedAt.get()), calls.sum(), victimFailures.sum());

        this.load.switcher.close();
        this.load.template.close();
        // At most: a node's count may also drop below its baseline, as the cluster's own links change roles.
        await("no connection left open on any live node").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Map<RedisServer, Integer> now = connections(survivors);
            survivors.forEach(node -> assertThat(now.get(node)).as("connections on %s", node.address())
                    .isLessThanOrEqualTo(baseline.get(node)));
        });
    }

    private static Map<RedisServer, Integer> connections(List<RedisServer> nodes) {
        Map<RedisServer, Integer> counts = new ConcurrentHashMap<>();
        nodes.forEach(node -> counts.put(node, node.connectedClients()));
        return counts;
    }

    private static void addBounded(List<String> failures, String failure) {
        if (failures.size() < 20) {
            failures.add(failure);
        }
    }
}
