package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.adaptivecache.devservers.DelayingProxy;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The race between a read's reply and an invalidation, which travel on different connections.
 * B's data path runs through a proxy that delays each direction by {@link #DELAY}; its
 * invalidation connection does not. So B's read reaches the server, reads the old value, A
 * writes the new one, B's invalidation arrives, and only then does the read's reply: a near
 * cache that kept that reply would serve the old value from then on, although it had received
 * the invalidation. The version taken before the read was sent is what makes B drop it.
 */
class NearCacheReadRaceIntegrationTests extends OneRedisNearCacheTests {

    private static final Duration DELAY = Duration.ofMillis(200);

    private DelayingProxy proxy;
    private NearInstances.Instance a;
    private NearInstances.Instance b;

    @BeforeEach
    void start() throws Exception {
        proxy = new DelayingProxy(ServerProcess.HOST, redis.server().port());
        a = instances.start("a", template -> template.strategy(StrategySpec.single()));
        b = instances.start("b", template -> template.strategy(StrategySpec.single())
                .uri("redis://" + ServerProcess.HOST + ":" + proxy.port()).commandTimeout(Duration.ofSeconds(5)));
        await().atMost(Duration.ofSeconds(5)).until(() -> b.near().isServingLocally());
        proxy.delayMillis(DELAY.toMillis());
    }

    @Override
    void afterInstancesClosed() {
        proxy.close();
    }

    @Test
    void anAsyncReadOvertakenByAnInvalidationIsNotKept() throws Exception {
        overtake("get-async", key -> b.near().getAsync(key).thenApply(NearCacheReadRaceIntegrationTests::text));
    }

    @Test
    void aSyncReadOvertakenByAnInvalidationIsNotKept() throws Exception {
        overtake("get", key -> CompletableFuture.supplyAsync(() -> text(b.near().get(key))));
    }

    @Test
    void aGetAllOvertakenByAnInvalidationIsNotKept() throws Exception {
        overtake("get-all", key -> b.near().getAllAsync(List.of(key)).thenApply((Map<String, byte[]> all) -> text(all.get(key))));
    }

    private void overtake(String name, Function<String, CompletableFuture<String>> readOnB) throws Exception {
        for (int i = 0; i < 5; i++) {
            String key = NearInstances.PREFIX + "race:" + name + ":" + i;
            a.near().set(key, bytes("old"), Duration.ZERO);
            // B holds no copy: a read must go to the server.
            assertThat(b.near().stats().size()).isZero();
            long invalidations = b.near().stats().serverInvalidations();
            long discarded = b.near().stats().discardedLoads();
            CompletableFuture<String> read = readOnB.apply(key);
            // The read reaches the server after DELAY and reads "old"; its reply needs another DELAY to come back.
            Thread.sleep(DELAY.toMillis() * 3 / 2);
            a.near().set(key, bytes("new"), Duration.ZERO);
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                    .until(() -> b.near().stats().serverInvalidations() > invalidations);
            assertThat(read).as("the read's reply is still on its way when B has the invalidation").isNotDone();
            assertThat(read.get(10, TimeUnit.SECONDS)).as("the read began before the write").isEqualTo("old");
            assertThat(text(b.near().get(key))).as("B's read after the invalidation and the overtaken reply").isEqualTo("new");
            assertThat(b.near().stats().discardedLoads()).as("the overtaken reply was dropped").isEqualTo(discarded + 1);
            b.near().invalidateLocal();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
