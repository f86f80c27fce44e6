package io.adaptivecache.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.ProbeJvm;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Which of Lettuce's I/O threads a strategy's shared connections run on. Lettuce registers every
 * new channel on the next I/O thread in turn, whoever opens it; a MULTI whose connections are
 * opened while other connections are opened too (a pool creating connections for its callers
 * during the switch, a reconnect) could get two of its connections on one thread, and then ran as
 * a SINGLE with more work. Each connection must have a thread of its own while N is at most the
 * threads, and the threads as even a share as they allow beyond. Every load loop here is bounded
 * in calls and in time.
 */
class RedisEventLoopPlacementIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    /** Rounds per case: each a fresh template, so a fresh set of I/O threads. */
    private static final int ROUNDS = 20;

    private final ExecutorService executor = Executors.newFixedThreadPool(PlacementRace.CALLERS + 1);

    @AfterEach
    void stopCallers() throws InterruptedException {
        executor.shutdownNow();
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @ParameterizedTest(name = "POOLED to MULTI({1}) on {0} I/O threads")
    @CsvSource({ "2, 2", "4, 4", "4, 3", "2, 4" })
    void aMultiReachedByASwitchWhileOtherConnectionsOpenShouldSpreadItsConnectionsOverTheIoThreads(int ioThreads,
            int connections) throws Exception {
        List<String> crowded = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            List<String> threads = PlacementRace.switchFromPool(redis.uri(), RedisTransport.NIO, ioThreads, connections,
                    executor);
            if (PlacementRace.crowded(threads, ioThreads)) {
                crowded.add("round " + round + ": " + threads);
            }
        }
        System.out.printf("POOLED to MULTI(%d) on %d I/O threads: %d of %d rounds crowded one thread%n", connections, ioThreads,
                crowded.size(), ROUNDS);
        assertThat(crowded).as("rounds whose MULTI(%d) crowds an I/O thread", connections).isEmpty();
    }

    @ParameterizedTest(name = "MULTI({1}) opened directly on {0} I/O threads")
    @CsvSource({ "2, 2", "4, 4", "4, 3", "2, 4" })
    void aMultiOpenedDirectlyShouldSpreadItsConnectionsOverTheIoThreads(int ioThreads, int connections) {
        List<String> crowded = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            try (ManagedCacheTemplate template = PlacementRace.start(redis.uri(), RedisTransport.NIO,
                    StrategySpec.multi(connections, SelectorType.ROUND_ROBIN), ioThreads)) {
                List<String> threads = PlacementRace.threadsOf(EventLoops.ofSharedConnections(template, connections).values());
                if (PlacementRace.crowded(threads, ioThreads)) {
                    crowded.add("round " + round + ": " + threads);
                }
            }
        }
        System.out.printf("MULTI(%d) opened directly on %d I/O threads: %d of %d rounds crowded one thread%n", connections,
                ioThreads, crowded.size(), ROUNDS);
        assertThat(crowded).isEmpty();
    }

    @Test
    void aMultiWhoseConnectionsReconnectWhileOtherConnectionsOpenShouldComeBackOnItsOwnIoThreads() throws Exception {
        List<String> crowded = new ArrayList<>();
        try (ManagedCacheTemplate template = PlacementRace.start(redis.uri(), RedisTransport.NIO,
                StrategySpec.multi(2, SelectorType.ROUND_ROBIN), 2)) {
            // Other connections of the same client keep opening and closing while the MULTI's reconnect.
            PlacementRace.Loops opener = PlacementRace.opener(RedisCacheTemplates.connectionLeases(template), executor);
            List<StatefulRedisConnection<String, byte[]>> connections = List
                    .copyOf(EventLoops.ofSharedConnections(template, 2).keySet());
            for (int round = 0; round < ROUNDS; round++) {
                long before = opener.done();
                await().atMost(Duration.ofSeconds(30)).until(() -> opener.done() > before);
                List<Long> ids = new ArrayList<>();
                for (StatefulRedisConnection<String, byte[]> connection : connections) {
                    ids.add(connection.sync().clientId());
                }
                for (Long id : ids) {
                    redis.server().command("CLIENT", "KILL", "ID", Long.toString(id));
                }
                for (int i = 0; i < connections.size(); i++) {
                    StatefulRedisConnection<String, byte[]> connection = connections.get(i);
                    long old = ids.get(i);
                    // Reconnected: answering on a new server connection.
                    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> connection.sync().clientId() != old);
                }
                List<String> threads = PlacementRace.threadsOf(connections.stream().map(EventLoops::of).toList());
                if (PlacementRace.crowded(threads, 2)) {
                    crowded.add("round " + round + ": " + threads);
                }
            }
            opener.stop();
        }
        System.out.printf("MULTI(2) reconnected while other connections open: %d of %d rounds crowded one thread%n", crowded.size(),
                ROUNDS);
        assertThat(crowded).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = RedisTransport.class, names = { "NIO", "EPOLL", "IO_URING" })
    void aMultiReachedByASwitchShouldSpreadItsConnectionsOnEveryTransport(RedisTransport transport) throws Exception {
        assumeThat(transport.isAvailable()).as(transport.label() + " on this machine: " + transport.unavailability()).isTrue();
        String run = ProbeJvm.run(EventLoopPlacementProbe.class, Duration.ofSeconds(120), List.of(), redis.uri(), transport.label(), "2",
                "2", "10");
        System.out.println(transport.label() + ": " + lastLine(run));
        assertThat(run).contains("in-use=" + transport.label() + " rounds=10 crowded=0 ");
    }

    private static String lastLine(String output) {
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1];
    }
}
