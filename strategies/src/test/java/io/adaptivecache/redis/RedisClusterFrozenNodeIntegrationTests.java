package io.adaptivecache.redis;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.metrics.NodeBreaker;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisCluster;
import io.adaptivecache.testservers.RedisClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One master frozen (SIGSTOP) for four seconds under 32 callers spread over the keys of all three
 * masters, with a 1 s command timeout. The measure is the server's own: GET and SET calls
 * ({@code INFO commandstats}) on the two healthy masters in the four seconds before the freeze
 * against the four seconds of the freeze. The cluster's node timeout is 15 s, so that the frozen
 * master is not failed over: only the node breaker is at work.
 */
class RedisClusterFrozenNodeIntegrationTests {

    @RegisterExtension
    static final RedisClusterExtension redis = RedisClusterExtension.withNodeTimeout(Duration.ofSeconds(15));

    private static final Duration WINDOW = Duration.ofSeconds(4);

    @RegisterExtension
    final ClusterLoad load = new ClusterLoad(32);

    @Test
    void aFrozenMasterShouldCostOnlyItsOwnKeysCallersWhileTheOthersKeepMostOfTheirThroughput() throws Exception {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Run run;
        try {
            // Lettuce's and this project's log lines go to System.err (slf4j-simple): keep a copy to count them.
            System.setErr(new PrintStream(new TeeStream(originalErr, log), true, StandardCharsets.UTF_8));
            run = freezeUnderLoad(NodeBreaker.Settings.DEFAULTS);
            // The first call after the thaw that the breaker lets through ends the outage.
            await("the outage to end in the log").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> log.toString(StandardCharsets.UTF_8).contains("outage over"));
        }
        finally {
            System.setErr(originalErr);
        }
        System.out.printf("node breaker on: healthy masters served %d GET/SET in %d ms before the freeze, %d in %d ms of it%n",
                run.before, run.beforeMillis, run.during, run.duringMillis);
        assertThat(run.before).as("calls on the healthy masters before the freeze").isGreaterThan(2_000);
        assertThat(run.during).as("calls on the healthy masters during the freeze, against %d before", run.before)
                .isGreaterThanOrEqualTo(run.before / 2);
        assertThat(run.rejection.get()).as("a call for the frozen master's keys, refused at once").isNotNull();
        assertThat(run.rejection.get().getMessage()).contains("node " + this.load.frozen.address() + " (slot ")
                .doesNotContain("redis-cluster://");
        assertThat(run.timeout.get()).as("a call that waited out the timeout before the breaker opened").isNotNull();
        assertThat(run.timeout.get().getMessage()).contains("Redis Cluster node " + this.load.frozen.address() + " (slot ")
                .doesNotContain("redis-cluster://");
        assertThat(run.getAllFailure.get()).as("a getAll over every master's keys during the freeze")
                .isInstanceOf(CacheRejectedException.class).hasMessageContaining("node " + this.load.frozen.address() + " (slot ");
        String frozenAddress = this.load.frozen.address();
        List<String> lines = log.toString(StandardCharsets.UTF_8).lines().filter(line -> line.contains(frozenAddress)).toList();
        assertThat(lines.stream().filter(line -> line.contains("WARN") && line.contains("did not answer")).count())
                .as("warnings that %s stopped answering, in %s", frozenAddress, lines).isEqualTo(1);
        assertThat(lines.stream().filter(line -> line.contains("WARN") && line.contains("outage over")).count())
                .as("lines saying that %s answers again, in %s", frozenAddress, lines).isEqualTo(1);
    }

    @Test
    void withoutTheNodeBreakerAFrozenMasterShouldStallTheCallersOfEveryMaster() throws Exception {
        // The same run without the guard: shows that the measure above can fail.
        Run run = freezeUnderLoad(NodeBreaker.Settings.DISABLED);
        System.out.printf("node breaker off: healthy masters served %d GET/SET in %d ms before the freeze, %d in %d ms of it%n",
                run.before, run.beforeMillis, run.during, run.duringMillis);
        assertThat(run.before).isGreaterThan(2_000);
        assertThat(run.during).as("calls on the healthy masters during the freeze, against %d before", run.before)
                .isLessThan(run.before / 10);
        assertThat(run.rejection.get()).as("nothing refuses calls without the breaker").isNull();
    }

    private Run freezeUnderLoad(NodeBreaker.Settings breaker) throws Exception {
        RedisCluster cluster = redis.cluster();
        cluster.awaitHealthy(Duration.ofSeconds(30));
        // With a 15 s node timeout the nodes gossip slowly, so the replicas may still look like empty masters for a while.
        await("three masters").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> cluster.masters().size() == 3);
        List<RedisServer> masters = cluster.masters();
        this.load.frozen = null;
        RedisServer victim = masters.get(0);
        List<RedisServer> healthy = masters.subList(1, 3);
        List<String> keys = new ArrayList<>();
        Set<String> victimKeys = new HashSet<>();
        for (RedisServer master : masters) {
            for (int i = 0; i < 20; i++) {
                String key = cluster.keyOn(master, "frozen:" + i + ":");
                keys.add(key);
                if (master == victim) {
                    victimKeys.add(key);
                }
            }
        }
        this.load.template = RedisClusterCacheTemplates.builder().nodes(cluster.seedAddresses().split(","))
                .strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)).commandTimeout(Duration.ofSeconds(1))
                .nodeBreaker(breaker).start();
        byte[] value = new byte[100];
        keys.forEach(key -> this.load.template.set(key, value, Duration.ZERO));
        Run run = new Run();
        LongAdder calls = new LongAdder();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        this.load.stop.set(false);
        List<Future<?>> workers = this.load.submitCallers(5_000_000, deadline, keys,
                value, calls, (key, ex) -> {
                    // Other failures are counted by the servers, not here.
                    if (victimKeys.contains(key) && ex instanceof CacheRejectedException rejected) {
                        run.rejection.compareAndSet(null, rejected);
                    }
                    else if (victimKeys.contains(key) && ex instanceof CacheTimeoutException timedOut) {
                        run.timeout.compareAndSet(null, timedOut);
                    }
                });
        try {
            await("load to run").atMost(Duration.ofSeconds(20)).until(() -> calls.sum() > 2_000);
            long started = System.nanoTime();
            long atStart = getsAndSets(healthy);
            sleep(WINDOW);
            long atFreeze = getsAndSets(healthy);
            long frozenAt = System.nanoTime();
            this.load.frozen = victim;
            victim.freeze();
            sleep(WINDOW);
            long atThaw = getsAndSets(healthy);
            long thawAt = System.nanoTime();
            try {
                this.load.template.getAll(List.of(keys.get(0), keys.get(20), keys.get(40)));
            }
            catch (RuntimeException ex) {
                run.getAllFailure.set(ex);
            }
            victim.thaw();
            this.load.frozen = victim;
            run.before = atFreeze - atStart;
            run.during = atThaw - atFreeze;
            run.beforeMillis = TimeUnit.NANOSECONDS.toMillis(frozenAt - started);
            run.duringMillis = TimeUnit.NANOSECONDS.toMillis(thawAt - frozenAt);
        }
        finally {
            victim.thaw();
        }
        // Calls go on for a moment after the thaw, for the breaker's trial call to find the node answering.
        sleep(Duration.ofSeconds(2));
        this.load.stop.set(true);
        for (Future<?> worker : workers) {
            worker.get(30, TimeUnit.SECONDS);
        }
        this.load.template.close();
        this.load.template = null;
        return run;
    }

    /** GET and SET calls the masters have served, from their own command statistics. */
    private static long getsAndSets(List<RedisServer> masters) {
        long total = 0;
        for (RedisServer master : masters) {
            total += calls(master.info("commandstats", "cmdstat_get")) + calls(master.info("commandstats", "cmdstat_set"));
        }
        return total;
    }

    private static long calls(String stat) {
        if (stat == null) {
            return 0;
        }
        // calls=123,usec=...,
        int from = stat.indexOf("calls=") + "calls=".length();
        int to = stat.indexOf(',', from);
        return Long.parseLong(stat.substring(from, to < 0 ? stat.length() : to));
    }

    private static void sleep(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    private static final class Run {

        long before;
        long during;
        long beforeMillis;
        long duringMillis;
        final AtomicReference<CacheRejectedException> rejection = new AtomicReference<>();
        final AtomicReference<CacheTimeoutException> timeout = new AtomicReference<>();
        final AtomicReference<RuntimeException> getAllFailure = new AtomicReference<>();
    }

    /** Writes to two streams. */
    private static final class TeeStream extends java.io.OutputStream {

        private final java.io.OutputStream first;
        private final java.io.OutputStream second;

        TeeStream(java.io.OutputStream first, java.io.OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            this.first.write(b);
            this.second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            this.first.write(b, off, len);
            this.second.write(b, off, len);
        }
    }
}
