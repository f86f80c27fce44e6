package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An own {@code set} and another client's write of the same key run in one cycle of Redis's event
 * loop, which reports both keys' writes in one {@code invalidate} message: that report must not be
 * taken as the echo of the own write alone. The server's writes are paused
 * ({@code CLIENT PAUSE ... WRITE}) while both are sent, the own set first, so that both run, in
 * that order, in the cycle that ends the pause.
 */
class NearCacheOwnWriteRaceIntegrationTests {

    private static final int KEYS = 20;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private NearInstances instances;
    private NearInstances.Instance a;
    private RedisClient plainClient;
    private StatefulRedisConnection<String, String> plain;
    private StatefulRedisConnection<String, String> pauser;

    @BeforeEach
    void start() {
        instances = new NearInstances(redis.uri());
        a = instances.start("a", template -> template.strategy(StrategySpec.single()));
        await().atMost(Duration.ofSeconds(5)).until(() -> a.near().isServingLocally());
        plainClient = RedisClient.create(redis.uri());
        plain = plainClient.connect();
        pauser = plainClient.connect();
    }

    @AfterEach
    void stop() {
        instances.close();
        plainClient.shutdown();
    }

    @Test
    void anOwnSetAndAnotherClientsWriteInOneEventLoopCycleShouldLeaveNoStaleCopy() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            String key = NearInstances.PREFIX + "race:" + i;
            keys.add(key);
            plain.sync().set(key, "0");
        }
        long blockedBefore = blocked();
        long reportsBefore = a.near().stats().serverInvalidations();
        // Long enough to send both writes of every key while it lasts; when it ends they all run in one cycle.
        pauser.sync().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("PAUSE").add(1000).add("WRITE"));
        long pausedAt = System.nanoTime();
        List<CompletableFuture<Void>> own = new ArrayList<>();
        for (String key : keys) {
            own.add(a.near().setAsync(key, bytes("100"), Duration.ZERO));
        }
        // A's connection is held by the pause before the other client's writes are sent: A's sets run first.
        await().atMost(Duration.ofMillis(500)).pollInterval(Duration.ofMillis(1)).until(() -> blocked() > blockedBefore);
        List<CompletableFuture<?>> theirs = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            String key = keys.get(i);
            theirs.add(switch (i % 3) {
                case 0 -> plain.async().set(key, "200").toCompletableFuture();
                case 1 -> plain.async().del(key).toCompletableFuture();
                default -> plain.async().incr(key).toCompletableFuture();
            });
        }
        await().atMost(Duration.ofMillis(500)).pollInterval(Duration.ofMillis(1)).until(() -> blocked() > blockedBefore + 1);
        assertThat(Duration.ofNanos(System.nanoTime() - pausedAt)).as("both writes were sent while the pause lasted")
                .isLessThan(Duration.ofMillis(1000));
        for (CompletableFuture<Void> write : own) {
            write.get(5, TimeUnit.SECONDS);
        }
        for (CompletableFuture<?> write : theirs) {
            write.get(5, TimeUnit.SECONDS);
        }
        // Within the staleness bound (and a margin) every key's report has come; then the near cache answers what the
        // server holds.
        Duration settle = a.near().stalenessBound().plusMillis(200);
        List<String> stale = new ArrayList<>();
        await().atMost(settle).pollInterval(Duration.ofMillis(1))
                .until(() -> a.near().stats().serverInvalidations() >= reportsBefore + KEYS);
        for (String key : keys) {
            String near = text(a.near().get(key));
            String server = plain.sync().get(key);
            if (!java.util.Objects.equals(near, server)) {
                stale.add(key + ": near cache " + near + ", server " + server);
            }
        }
        assertThat(stale).as("keys the near cache answers otherwise than the server once their reports came").isEmpty();
        // Read again: a stale copy would be a local hit; every answer agrees with the server's.
        for (String key : keys) {
            assertThat(text(a.near().get(key))).as(key).isEqualTo(plain.sync().get(key));
        }
    }

    private static long blocked() {
        return Long.parseLong(redis.server().info("clients", "blocked_clients").trim());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
