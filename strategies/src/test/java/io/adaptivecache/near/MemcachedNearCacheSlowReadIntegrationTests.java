package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.adaptivecache.devservers.DelayingProxy;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A staleness-bounded near cache (memcached) whose read is slow: reads that start later must not
 * share its answer once it is older than the bound. A's data path runs through a proxy that
 * delays each direction by 700 ms; another instance writes straight to the server.
 */
class MemcachedNearCacheSlowReadIntegrationTests {

    private static final Duration MAX_STALENESS = Duration.ofMillis(100);
    private static final long DELAY_MILLIS = 700;

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private DelayingProxy proxy;
    private ManagedCacheTemplate slow;
    private ManagedCacheTemplate direct;
    private NearCacheTemplate nearA;

    @BeforeEach
    void start() throws Exception {
        proxy = new DelayingProxy(ServerProcess.HOST, memcached.server().port());
        slow = MemcachedCacheTemplates.builder().servers(ServerProcess.HOST + ":" + proxy.port()).name("a")
                .strategy(StrategySpec.single()).operationTimeout(Duration.ofSeconds(5)).start();
        direct = MemcachedCacheTemplates.builder().servers(memcached.addresses()).name("w").strategy(StrategySpec.single()).start();
        nearA = NearCacheTemplates.stalenessBounded(slow, MAX_STALENESS, NearCacheSettings.builder().keyPrefixes("near:").build());
    }

    @AfterEach
    void stop() {
        nearA.close();
        slow.close();
        direct.close();
        proxy.close();
    }

    @Test
    void readsStartedLaterThanTheBoundAfterAWriteShouldNotShareASlowReadSentBeforeIt() throws Exception {
        String key = "near:slow";
        direct.set(key, bytes("old"), Duration.ZERO);
        assertThat(text(slow.get(key))).as("A's connection is up").isEqualTo("old");
        proxy.delayMillis(DELAY_MILLIS);
        long getsBefore = gets();
        CompletableFuture<byte[]> slowRead = nearA.getAsync(key);
        // The server has answered the slow read (its answer is on its way back through the proxy): then the write.
        await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(1)).until(() -> gets() > getsBefore);
        direct.set(key, bytes("new"), Duration.ZERO);
        long written = System.nanoTime();
        List<CompletableFuture<String>> reads = new ArrayList<>();
        List<Long> startedAfter = new ArrayList<>();
        for (long at = 250; at <= 600; at += 50) {
            long startAt = written + TimeUnit.MILLISECONDS.toNanos(at);
            while (System.nanoTime() - startAt < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            startedAfter.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - written));
            if (at % 100 == 0) {
                reads.add(CompletableFuture.supplyAsync(() -> text(nearA.get(key)), runnable -> new Thread(runnable).start()));
            }
            else {
                reads.add(nearA.getAsync(key).thenApply(MemcachedNearCacheSlowReadIntegrationTests::text));
            }
        }
        assertThat(text(slowRead.get(10, TimeUnit.SECONDS))).as("the slow read, sent before the write").isEqualTo("old");
        List<String> answers = new ArrayList<>();
        for (CompletableFuture<String> read : reads) {
            answers.add(read.get(10, TimeUnit.SECONDS));
        }
        assertThat(answers).as("reads started %s ms after the write returned, with a staleness bound of %d ms", startedAfter,
                MAX_STALENESS.toMillis()).containsOnly("new");
    }

    private static long gets() {
        return Long.parseLong(memcached.server().stat("cmd_get"));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
