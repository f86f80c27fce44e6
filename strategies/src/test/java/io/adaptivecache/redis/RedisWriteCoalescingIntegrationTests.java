package io.adaptivecache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands of concurrent callers on a shared connection leave in shared socket writes, judged
 * by the server's own count of the reads it made ({@code INFO stats}, {@code total_reads_processed});
 * a lone caller's command leaves at once; and our counts of commands and socket writes agree with
 * the server's. Each measurement runs between two readings of the server's count on the test
 * server's admin connection; the second reading's own read is taken off.
 *
 * <p>Without coalescing, Lettuce writes every command on its own, and the server still reads a few
 * commands at a time when they pile up in its socket while it is busy: 1.7 to 5.8 commands per read
 * here (two shared cores, loaded by other builds), at 50 to 200 callers. With coalescing it read 18
 * to 29 per read with 50 callers on one connection, 12 to 30 with 50 callers on each of two.
 * {@link #MIN_COMMANDS_PER_READ} sits between the two.
 */
class RedisWriteCoalescingIntegrationTests {

    /** The least commands per server read with coalescing on; without it the server read 1.7 to 5.8. */
    private static final int MIN_COMMANDS_PER_READ = 8;

    /** Commands per measured run of concurrent callers. */
    private static final int COMMANDS = 20_000;

    private static final String KEY = "coalesce:key";
    private static final byte[] VALUE = "value".getBytes(StandardCharsets.UTF_8);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    /** 50 callers on each shared connection, the lower end of the loads coalescing is for. */
    static Stream<Arguments> sharedConnections() {
        return Stream.of(Arguments.of(StrategySpec.single(), 50), Arguments.of(StrategySpec.multi(2, SelectorType.ROUND_ROBIN), 100));
    }

    @ParameterizedTest
    @MethodSource("sharedConnections")
    void concurrentCallersCommandsShareTheServersReads(StrategySpec strategy, int callers) throws Exception {
        Measured measured = measure(template -> template.strategy(strategy), callers, COMMANDS / callers);

        assertThat(measured.serverReads()).as("the server's reads for %d commands", COMMANDS)
                .isLessThanOrEqualTo(COMMANDS / MIN_COMMANDS_PER_READ);
        assertThat(measured.ours().commands()).as("our count of commands").isEqualTo(COMMANDS);
        // The server reads whatever has arrived, so it may fold several of our writes into one read (up to 9
        // here), never read more often than we wrote. A count of flushes before they were coalesced would be
        // one per command.
        assertThat(measured.ours().writes()).as("our count of socket writes, against the server's %d reads", measured.serverReads())
                .isGreaterThanOrEqualTo(measured.serverReads())
                .isLessThanOrEqualTo(COMMANDS / 2);
    }

    /**
     * Commands sent within one task of the connection's event loop leave in one write, which the
     * server reads at once: our counts and the server's agree exactly.
     */
    @Test
    void commandsSentInOneEventLoopTurnLeaveInOneWriteThatTheServerReadsOnce() throws Exception {
        Measured measured = bursts(true, 20, 50);

        assertThat(measured.ours()).isEqualTo(new RedisWrites(20 * 50, 20));
        assertThat(measured.serverReads()).isEqualTo(20);
    }

    /** The same bursts without coalescing: a write per command, which the server may read several at a time. */
    @Test
    void withoutCoalescingCommandsSentInOneTurnAreAWriteEach() throws Exception {
        Measured measured = bursts(false, 20, 50);

        assertThat(measured.ours()).isEqualTo(new RedisWrites(20 * 50, 20 * 50));
        assertThat(measured.serverReads()).isBetween(20L, 20L * 50);
    }

    @Test
    void withoutCoalescingEveryCommandIsAWriteOfItsOwn() throws Exception {
        Measured measured = measure(template -> template.strategy(StrategySpec.single()).coalesceWrites(false), 50, COMMANDS / 50);

        assertThat(measured.ours()).isEqualTo(new RedisWrites(COMMANDS, COMMANDS));
        assertThat(measured.serverReads()).isLessThanOrEqualTo(COMMANDS);
    }

    @Test
    void aLoneCallersCommandsEachLeaveAtOnceInAWriteOfTheirOwn() throws Exception {
        // One caller, one command at a time: nothing to coalesce with, and each one is sent without waiting for any.
        Measured measured = measure(template -> template.strategy(StrategySpec.single()), 1, 300);

        assertThat(measured.serverReads()).isEqualTo(300);
        assertThat(measured.ours()).isEqualTo(new RedisWrites(300, 300));
    }

    @Test
    void pooledConnectionsEachCarryOneCallersCommandsAtOnce() throws Exception {
        // All eight opened at the start: a connection opened during the measured run would add its handshake's reads.
        StrategySpec pooled = StrategySpec.pooled(new PoolSettings(8, 8, 8, Duration.ofSeconds(2)));
        // A pooled connection serves one caller at a time: every command is alone on its connection.
        Measured measured = measure(template -> template.strategy(pooled), 8, 100);

        assertThat(measured.serverReads()).isEqualTo(800);
        assertThat(measured.ours()).isEqualTo(new RedisWrites(800, 800));
    }

    /**
     * The flush of a lone command is a task the event loop queues behind the tasks already waiting,
     * not a timer's: a task queued after the command's write task, and one that task queues in turn
     * (in the same pass over the queue, which picks up no timer that fell due meanwhile), finds the
     * command on the socket before its reply is awaited.
     */
    @Test
    void aLoneCommandIsFlushedByTheEventLoopsQueuedTasksWithoutATimer() throws Exception {
        try (RawConnection raw = new RawConnection(true)) {
            RedisWrites before = raw.writes.counts();
            CompletableFuture<RedisWrites> seenAfterTheFlushTask = new CompletableFuture<>();

            RedisFuture<byte[]> reply = raw.connection.async().get(KEY);
            // Behind the command's write task; the flush that task defers is queued behind this one, and this one
            // queues the reading behind the flush.
            EventLoop loop = raw.channel.get().eventLoop();
            loop.execute(() -> loop.execute(() -> seenAfterTheFlushTask.complete(raw.writes.counts().since(before))));

            assertThat(seenAfterTheFlushTask.get(5, TimeUnit.SECONDS)).isEqualTo(new RedisWrites(1, 1));
            assertThat(reply.get(5, TimeUnit.SECONDS)).isEqualTo(VALUE);
        }
    }

    @Test
    void aJedisPooledTemplatesLettuceConnectionsAreCounted() throws Exception {
        Measured measured = measure(template -> template.pooledDriver(RedisDriver.JEDIS).strategy(StrategySpec.single()), 1, 100);

        assertThat(measured.ours()).isEqualTo(new RedisWrites(100, 100));
    }

    @Test
    void aTemplateOnTheApplicationsClientResourcesHasNoCounts() {
        ClientResources shared = DefaultClientResources.create();
        try (ManagedCacheTemplate template = RedisCacheTemplates.builder().uri(redis.uri()).clientResources(shared)
                .strategy(StrategySpec.single()).start()) {
            template.set(KEY, VALUE, Duration.ZERO);

            assertThat(RedisWrites.of(template)).isEmpty();
        }
        finally {
            shared.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }

    /** Our counts over a run, and the server's reads in it. */
    private record Measured(long serverReads, RedisWrites ours) {
    }

    /**
     * Starts a template on the test server as {@code options} set it up, stores the key, warms up
     * (connections open and code compiled, so that the measured run is the steady state) and
     * measures a run of {@code callers} reading the key {@code commandsEach} times each.
     */
    private static Measured measure(UnaryOperator<RedisCacheTemplates.Builder> options, int callers, int commandsEach) throws Exception {
        try (ManagedCacheTemplate template = options.apply(RedisCacheTemplates.builder().uri(redis.uri())).start()) {
            template.set(KEY, VALUE, Duration.ZERO);
            run(template, callers, 20);
            return run(template, callers, commandsEach);
        }
    }

    /**
     * Sends {@code bursts} bursts of {@code commandsEach} reads, each burst from within one task of
     * a raw connection's event loop, and waits for every reply to be the value.
     */
    private static Measured bursts(boolean coalesce, int bursts, int commandsEach) throws Exception {
        try (RawConnection raw = new RawConnection(coalesce)) {
            RedisWrites before = raw.writes.counts();
            long readsBefore = serverReads();
            for (int burst = 0; burst < bursts; burst++) {
                for (RedisFuture<byte[]> reply : raw.inOneTurn(commandsEach)) {
                    assertThat(reply.get(5, TimeUnit.SECONDS)).isEqualTo(VALUE);
                }
            }
            // Less the read of the INFO that asks.
            long reads = serverReads() - readsBefore - 1;
            return new Measured(reads, raw.writes.counts().since(before));
        }
    }

    /**
     * Runs callers that, released together by a barrier, each read the key a number of times one
     * after another (a read waits for its reply, as a cache's caller does).
     */
    private static Measured run(ManagedCacheTemplate template, int callers, int commandsEach) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(callers);
        try {
            CyclicBarrier start = new CyclicBarrier(callers + 1);
            List<Future<Boolean>> done = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                done.add(threads.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    boolean allRead = true;
                    for (int n = 0; n < commandsEach; n++) {
                        allRead &= Arrays.equals(template.get(KEY), VALUE);
                    }
                    return allRead;
                }));
            }
            RedisWrites before = RedisWrites.of(template).orElseThrow();
            long readsBefore = serverReads();
            start.await(10, TimeUnit.SECONDS);
            for (Future<Boolean> caller : done) {
                assertThat(caller.get(60, TimeUnit.SECONDS)).as("every read got the value").isTrue();
            }
            // Less the read of the INFO that asks.
            long reads = serverReads() - readsBefore - 1;
            return new Measured(reads, RedisWrites.of(template).orElseThrow().since(before));
        }
        finally {
            threads.shutdownNow();
        }
    }

    private static long serverReads() {
        return Long.parseLong(redis.server().info("stats", "total_reads_processed"));
    }

    /** One Lettuce connection with the template's channel writes installed, and its channel at hand. */
    private static final class RawConnection implements AutoCloseable {

        final ChannelWrites writes = new ChannelWrites();
        final ClientResources resources;
        final RedisClient client;
        final StatefulRedisConnection<String, byte[]> connection;
        final AtomicReference<Channel> channel = new AtomicReference<>();

        RawConnection(boolean coalesce) {
            this.writes.coalesce(coalesce);
            NettyCustomizer captor = new NettyCustomizer() {
                @Override
                public void afterChannelInitialized(Channel initialized) {
                    channel.set(initialized);
                }
            };
            this.resources = DefaultClientResources.builder().nettyCustomizer(NettyCustomizers.of(captor, this.writes.customizer()))
                    .build();
            this.client = RedisClient.create(this.resources);
            this.connection = this.client.connect(LettuceConnections.CODEC, RedisURI.create(redis.uri()));
            this.connection.sync().set(KEY, VALUE);
        }

        /** Sends reads of the key from within one task of the connection's event loop. */
        List<RedisFuture<byte[]>> inOneTurn(int commands) throws Exception {
            List<RedisFuture<byte[]>> replies = new ArrayList<>();
            runOnEventLoop(() -> {
                for (int n = 0; n < commands; n++) {
                    replies.add(this.connection.async().get(KEY));
                }
            });
            return replies;
        }

        void runOnEventLoop(Runnable task) throws Exception {
            this.channel.get().eventLoop().submit(task).get(5, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            this.connection.close();
            this.client.shutdown(0, 2, TimeUnit.SECONDS);
            this.resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }
}
