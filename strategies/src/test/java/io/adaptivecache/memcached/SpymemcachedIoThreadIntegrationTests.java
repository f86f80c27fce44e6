package io.adaptivecache.memcached;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.testservers.MemcachedServerExtension;
import net.spy.memcached.ConnectionFactoryBuilder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * spymemcached's I/O thread completes a call once it has read what arrived in its turn, not in
 * the middle of reading it: where the call's own continuation runs (on that thread) tells which.
 * It is woken once per turn, not once per call, and no call is left waiting for the selector's
 * own timeout (a second) by that.
 */
class SpymemcachedIoThreadIntegrationTests {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final String key = "io-thread:" + UUID.randomUUID();

    @ParameterizedTest
    @EnumSource(MemcachedProtocol.class)
    void aCallAnsweredByTheServerCompletesAfterTheTurnsReadsNotDuringThem(MemcachedProtocol protocol) throws Exception {
        SpymemcachedConnections connections = connections(protocol);
        SpymemcachedClient client = connections.open();
        try (OperationDeadlines deadlines = new OperationDeadlines(TimeUnit.SECONDS.toNanos(30), "test")) {
            SpymemcachedCacheCommands commands = new SpymemcachedCacheCommands(protocol, deadlines);
            commands.set(client, key, "v".getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(5)).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            CompletableFuture<StackTraceElement[]> where = new CompletableFuture<>();
            CompletionStage<byte[]> read;
            // Frozen, the server cannot answer before the continuation is attached: it runs where the call completes.
            memcached.server().freeze();
            try {
                read = commands.get(client, key);
                read.whenComplete((value, failure) -> where.complete(Thread.currentThread().getStackTrace()));
            }
            finally {
                memcached.server().thaw();
            }

            // Waited for before the read itself: a thread waiting on the read may run its continuations itself.
            StackTraceElement[] stack = where.get(30, TimeUnit.SECONDS);
            assertThat(read.toCompletableFuture().get(30, TimeUnit.SECONDS)).asString(StandardCharsets.UTF_8).isEqualTo("v");
            assertThat(Arrays.stream(stack).map(frame -> frame.getClassName() + "." + frame.getMethodName()))
                    .as("the continuation's stack")
                    .contains(SpymemcachedIoThread.class.getName() + ".handleIO")
                    .noneMatch(frame -> frame.endsWith(".handleReads"));
        }
        finally {
            connections.close(client);
        }
    }

    /**
     * The I/O thread selects with a timeout of a second; an operation queued without a wake-up
     * waits for it. A deadline well below that second fails such a call, so a wake-up skipped for
     * a lone caller fails this test: each call is queued once the thread is seen in its select.
     */
    @ParameterizedTest
    @EnumSource(MemcachedProtocol.class)
    void aLoneCallerWakesTheIoThreadForEveryCall(MemcachedProtocol protocol) throws Exception {
        SpymemcachedConnections connections = connections(protocol);
        SpymemcachedClient client = connections.open();
        try (OperationDeadlines deadlines = new OperationDeadlines(TimeUnit.MILLISECONDS.toNanos(SHORTER_THAN_A_SELECT), "test")) {
            SpymemcachedCacheCommands commands = new SpymemcachedCacheCommands(protocol, deadlines);
            byte[] value = "v".getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 50; i++) {
                awaitSelecting(client.ioThread());
                commands.set(client, key, value, Duration.ofMinutes(5)).toCompletableFuture().get(30, TimeUnit.SECONDS);
                awaitSelecting(client.ioThread());
                assertThat(commands.get(client, key).toCompletableFuture().get(30, TimeUnit.SECONDS)).isEqualTo(value);
            }
        }
        finally {
            connections.close(client);
        }
    }

    /**
     * Callers released together queue their operations while the I/O thread resets its wake-up
     * flag, reads the queue and selects; an operation that finds the flag set and is not read by
     * the turn that follows waits for the select's timeout and fails its deadline. Each round
     * ends when all its calls have, so its last call has no other reply to wake the thread.
     */
    @ParameterizedTest
    @EnumSource(MemcachedProtocol.class)
    void callersReleasedTogetherAreAllAnsweredWithoutWaitingForTheSelectorsTimeout(MemcachedProtocol protocol) throws Exception {
        int callers = 16;
        int rounds = 300;
        SpymemcachedConnections connections = connections(protocol);
        SpymemcachedClient client = connections.open();
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try (OperationDeadlines deadlines = new OperationDeadlines(TimeUnit.MILLISECONDS.toNanos(SHORTER_THAN_A_SELECT), "test")) {
            SpymemcachedCacheCommands commands = new SpymemcachedCacheCommands(protocol, deadlines);
            CyclicBarrier start = new CyclicBarrier(callers);
            List<Future<Integer>> answered = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                String callerKey = key + ":" + c;
                answered.add(pool.submit(() -> {
                    int count = 0;
                    for (int round = 0; round < rounds; round++) {
                        start.await(30, TimeUnit.SECONDS);
                        commands.get(client, callerKey).toCompletableFuture().get(30, TimeUnit.SECONDS);
                        count++;
                    }
                    return count;
                }));
            }
            for (Future<Integer> caller : answered) {
                assertThat(caller.get(2, TimeUnit.MINUTES)).isEqualTo(rounds);
            }
        }
        finally {
            pool.shutdownNow();
            connections.close(client);
        }
    }

    /** Waits until the I/O thread sits in its select, so that the next call is queued while it does. */
    private static void awaitSelecting(Thread io) {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Arrays.stream(io.getStackTrace()).noneMatch(frame -> frame.getClassName().equals("sun.nio.ch.SelectorImpl")
                && frame.getMethodName().equals("lockAndDoSelect"))) {
            assertThat(System.nanoTime() - giveUp).as("the I/O thread back in its select within 10 s").isNegative();
            Thread.onSpinWait();
        }
    }

    /** Below the I/O thread's select timeout of a second, with room for a slow machine's pauses. */
    private static final long SHORTER_THAN_A_SELECT = 400;

    private static SpymemcachedConnections connections(MemcachedProtocol protocol) {
        return new SpymemcachedConnections(MemcachedServerAddress.parseList(memcached.addresses()),
                builder -> builder.setProtocol(protocol == MemcachedProtocol.BINARY ? ConnectionFactoryBuilder.Protocol.BINARY
                        : ConnectionFactoryBuilder.Protocol.TEXT).setShouldOptimize(true).setDaemon(true),
                Duration.ofSeconds(5));
    }
}
