package io.adaptivecache.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.SwitchReport;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Switching under load loses nothing, and no strategy opens more connections than its bound. */
class RedisStrategySwitchIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration RUN_LIMIT = Duration.ofSeconds(90);

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void shutDown() throws InterruptedException {
        executor.shutdownNow();
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void switchingTwentyTimesUnderSixtyFourThreadsShouldFailNoCallAndLoseNoWrite() throws Exception {
        int baseline = redis.server().connectedClients();
        List<StrategySpec> cycle = List.of(StrategySpec.pooled(new PoolSettings(16, 16, 4, Duration.ofSeconds(5))),
                StrategySpec.multi(4, SelectorType.ROUND_ROBIN), StrategySpec.single());
        DefaultCacheTemplate<StatefulRedisConnection<String, byte[]>> template = RedisCacheTemplates.builder()
                .uri(redis.uri()).strategy(StrategySpec.single()).start();
        CacheOperations<String> cache = template.withCodec(ValueCodec.utf8());
        AtomicBoolean switchingDone = new AtomicBoolean();
        AtomicLong calls = new AtomicLong();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
        String run = UUID.randomUUID().toString();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 64; t++) {
            String key = run + ":thread:" + t;
            workers.add(executor.submit(() -> {
                // Bounded: stops after the switches end (plus a tail), at 20,000 rounds, or at the deadline.
                int tail = 50;
                for (int round = 0; round < 20_000 && tail > 0 && System.nanoTime() < deadline; round++) {
                    if (switchingDone.get()) {
                        tail--;
                    }
                    String written = key + ":" + round;
                    try {
                        cache.set(key, written, Duration.ofMinutes(5));
                        String read = cache.get(key);
                        calls.addAndGet(2);
                        if (!written.equals(read)) {
                            failures.add(key + " read " + read + " after writing " + written);
                        }
                    }
                    catch (RuntimeException ex) {
                        failures.add(key + " failed: " + ex);
                    }
                }
            }));
        }
        List<SwitchReport> reports = new ArrayList<>();
        for (int cycleRound = 0; cycleRound < 20; cycleRound++) {
            for (StrategySpec next : cycle) {
                reports.add(template.switchStrategy(next));
            }
        }
        switchingDone.set(true);
        for (Future<?> worker : workers) {
            worker.get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
        }

        assertThat(failures).isEmpty();
        assertThat(calls.get()).isGreaterThan(64L * 2 * 50);
        assertThat(reports).hasSize(60).allSatisfy(report -> {
            assertThat(report.changed()).isTrue();
            assertThat(report.drainedCleanly()).isTrue();
        });
        assertThat(template.activeStrategy()).isEqualTo(StrategySpec.single());
        assertThat(template.openConnections()).as("only the live strategy's connections stay open").isEqualTo(1);
        assertThat(redis.server().connectedClients()).isEqualTo(baseline + 1);

        template.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> redis.server().connectedClients() == baseline);
    }

    @Test
    void sharedStrategyShouldNeverOpenMoreThanNConnectionsUnderTwoHundredThreads() throws Exception {
        assertBoundHolds(StrategySpec.multi(4, SelectorType.LEAST_IN_FLIGHT), 4);
    }

    @Test
    void pooledStrategyShouldNeverOpenMoreThanMaxTotalConnectionsUnderTwoHundredThreads() throws Exception {
        assertBoundHolds(StrategySpec.pooled(new PoolSettings(6, 6, 0, Duration.ofSeconds(10))), 6);
    }

    private void assertBoundHolds(StrategySpec strategy, int bound) throws Exception {
        int baseline = redis.server().connectedClients();
        LongAccumulator peak = new LongAccumulator(Math::max, 0);
        AtomicInteger failed = new AtomicInteger();
        AtomicBoolean loadDone = new AtomicBoolean();
        try (DefaultCacheTemplate<StatefulRedisConnection<String, byte[]>> template = RedisCacheTemplates.builder()
                .uri(redis.uri()).strategy(strategy).start()) {
            Future<?> monitor = executor.submit(() -> {
                long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
                while (!loadDone.get() && System.nanoTime() < deadline) {
                    peak.accumulate(redis.server().connectedClients() - baseline);
                }
            });
            byte[] value = new byte[100];
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 200; t++) {
                String key = "bound:" + t;
                workers.add(executor.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        try {
                            template.set(key, value, Duration.ofMinutes(1));
                            template.get(key);
                        }
                        catch (RuntimeException ex) {
                            failed.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
            }
            loadDone.set(true);
            monitor.get(10, TimeUnit.SECONDS);
            peak.accumulate(template.strategyStats().openConnections());

            assertThat(failed.get()).isZero();
            assertThat(peak.get()).as("most connections the server saw at once").isPositive().isLessThanOrEqualTo(bound);
            assertThat(template.openConnections()).isLessThanOrEqualTo(bound);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> redis.server().connectedClients() == baseline);
    }
}
