package io.adaptivecache.memcached;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
 */
class SpymemcachedIoThreadIntegrationTests {

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final String key = "io-thread:" + UUID.randomUUID();

    @ParameterizedTest
    @EnumSource(MemcachedProtocol.class)
    void aCallAnsweredByTheServerCompletesAfterTheTurnsReadsNotDuringThem(MemcachedProtocol protocol) throws Exception {
        SpymemcachedConnections connections = new SpymemcachedConnections(MemcachedServerAddress.parseList(memcached.addresses()),
                builder -> builder.setProtocol(protocol == MemcachedProtocol.BINARY ? ConnectionFactoryBuilder.Protocol.BINARY
                        : ConnectionFactoryBuilder.Protocol.TEXT).setShouldOptimize(true).setDaemon(true),
                Duration.ofSeconds(5));
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
}
