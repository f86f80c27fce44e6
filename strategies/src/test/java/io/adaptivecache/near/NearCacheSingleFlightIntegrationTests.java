package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.devservers.DelayingProxy;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.strategy.StrategySpec;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads of a key missing locally share the read already on its way to the server (single flight).
 * That they never share one sent before a write of this instance completed is checked under load by
 * {@link NearCacheStalenessIntegrationTests} (read-your-writes). A's data path goes through a proxy
 * that delays each direction by 50 ms, so that reads overlap for sure; its invalidations come
 * straight from the server.
 */
class NearCacheSingleFlightIntegrationTests extends OneRedisNearCacheTests {

    private static final long DELAY_MILLIS = 50;

    private DelayingProxy proxy;
    private NearInstances.Instance a;
    private NearInstances.Instance b;

    @BeforeEach
    void start() throws Exception {
        this.proxy = new DelayingProxy(ServerProcess.HOST, redis.server().port());
        String slow = "redis://" + ServerProcess.HOST + ":" + this.proxy.port();
        this.a = this.instances.start("a", template -> template.uri(slow).strategy(StrategySpec.multi()));
        this.b = this.instances.start("b", template -> template.strategy(StrategySpec.single()));
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> this.a.near().isServingLocally() && this.b.near().isServingLocally());
        this.proxy.delayMillis(DELAY_MILLIS);
    }

    @Override
    void afterInstancesClosed() {
        this.proxy.close();
    }

    @Test
    void callersMissingTheSameKeyTogetherShouldShareOneReadOfTheServer() throws Exception {
        String key = NearInstances.PREFIX + "single-flight";
        this.b.near().set(key, bytes("v1"), Duration.ZERO);
        int callers = 16;
        long gets = getCalls();
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<String>> reads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            reads.add(CompletableFuture.supplyAsync(() -> {
                awaitLatch(go);
                return text(this.a.near().get(key));
            }, runnable -> new Thread(runnable).start()));
        }
        CompletableFuture<String> async = new CompletableFuture<>();
        long missesBefore = this.a.near().stats().localMisses();
        go.countDown();
        // The asynchronous read joins too, once a caller has missed and sent its read (a 100 ms round trip).
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                .until(() -> this.a.near().stats().localMisses() > missesBefore);
        this.a.near().getAsync(key).thenApply(NearCacheSingleFlightIntegrationTests::text).whenComplete((value, failure) -> {
            if (failure != null) {
                async.completeExceptionally(failure);
            }
            else {
                async.complete(value);
            }
        });
        for (CompletableFuture<String> read : reads) {
            assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo("v1");
        }
        assertThat(async.get(10, TimeUnit.SECONDS)).isEqualTo("v1");
        // The server's count, not ours: without sharing, each of the 17 callers sends its own GET.
        assertThat(getCalls() - gets).as("GETs the server executed for %d callers missing the key together", callers + 1)
                .isLessThanOrEqualTo(3);
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static long getCalls() {
        return NearInstances.serverGets(redis.server());
    }
}
