package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A local copy never outlives the key on the server. Redis reports an expiry only when it deletes
 * the key: on an access (which local hits spare it) or when its expiry cycle samples it, which
 * among many keys with a TTL can take minutes. The server holds 100,000 other keys with a TTL of
 * an hour, so that it does not delete the key of the test on its own in time.
 */
class NearCacheServerTtlIntegrationTests {

    private static final long TTL_MILLIS = 300;
    private static final long MARGIN_MILLIS = 30;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static RedisClient plainClient;
    private static StatefulRedisConnection<String, String> plain;

    private NearInstances instances;
    private NearInstances.Instance a;

    @BeforeAll
    static void fill() {
        plainClient = RedisClient.create(redis.uri());
        plain = plainClient.connect();
        plain.sync().eval("for i = 1, 100000 do redis.call('SET', 'filler:' .. i, 'x', 'EX', 3600) end", ScriptOutputType.STATUS);
    }

    @AfterAll
    static void closePlain() {
        plainClient.shutdown();
    }

    @BeforeEach
    void start() {
        instances = new NearInstances(redis.uri());
        a = instances.start("a", template -> template.strategy(StrategySpec.single()));
        await().atMost(Duration.ofSeconds(5)).until(() -> a.near().isServingLocally());
    }

    @AfterEach
    void stop() {
        instances.close();
    }

    @Test
    void aCopyOfAKeyAnotherClientSetWithAShortTtlShouldNotBeServedOnceTheKeyExpired() {
        String key = NearInstances.PREFIX + "ttl:theirs";
        long setAt = System.nanoTime();
        plain.sync().set(key, "v", SetArgs.Builder.px(TTL_MILLIS));
        assertThat(text(a.near().get(key))).isEqualTo("v");
        long hits = a.near().stats().localHits();
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(1))
                .until(() -> "v".equals(text(a.near().get(key))) && a.near().stats().localHits() > hits);
        assertNotServedAfterExpiry(key, setAt);
    }

    @Test
    void anOwnSetWithAShortTtlShouldBeKeptButNotServedOnceTheKeyExpired() {
        String key = NearInstances.PREFIX + "ttl:own";
        long setAt = System.nanoTime();
        a.near().set(key, bytes("v"), Duration.ofMillis(TTL_MILLIS));
        // No report of the key came (the echo is to come or came while the set was on its way): then it is kept.
        long hits = a.near().stats().localHits();
        assertThat(text(a.near().get(key))).isEqualTo("v");
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(1))
                .until(() -> "v".equals(text(a.near().get(key))) && a.near().stats().localHits() > hits);
        assertNotServedAfterExpiry(key, setAt);
    }

    /** From the TTL and a margin after the write was sent, for 700 ms, no read answers the value; then the server's word. */
    private void assertNotServedAfterExpiry(String key, long setAt) {
        long from = setAt + TimeUnit.MILLISECONDS.toNanos(TTL_MILLIS + MARGIN_MILLIS);
        long until = from + TimeUnit.MILLISECONDS.toNanos(700);
        while (System.nanoTime() - from < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        int reads = 0;
        while (System.nanoTime() - until < 0 && reads < 10_000) {
            long startedAt = System.nanoTime();
            String read = text(a.near().get(key));
            assertThat(read).as("a read of %s started %d ms after it was set with a TTL of %d ms", key,
                    TimeUnit.NANOSECONDS.toMillis(startedAt - setAt), TTL_MILLIS).isNull();
            reads++;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertThat(plain.sync().get(key)).as("the server's answer").isNull();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
