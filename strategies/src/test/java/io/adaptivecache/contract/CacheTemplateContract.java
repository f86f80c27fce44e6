package io.adaptivecache.contract;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import org.junit.jupiter.api.AfterEach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What every backend must do, on every strategy, against its real server. A backend's test
 * class extends this, starts its server with an extension and says how to build a template.
 */
public abstract class CacheTemplateContract {

    /** Time enough for a one-second TTL on a server with one-second clock resolution. */
    protected static final Duration EXPIRY_WAIT = Duration.ofSeconds(6);
    private static final Duration TOUCHED_TTL = Duration.ofSeconds(2);

    protected ManagedCacheTemplate template;
    /** What the servers had open before this test's first template, so the test can leave them as it found them. */
    private List<Integer> connectionsBeforeTest;
    protected final String prefix = UUID.randomUUID().toString().substring(0, 8) + ":";

    /** Builds and starts a template to the test server(s) with this strategy. */
    protected abstract ManagedCacheTemplate startTemplate(StrategySpec strategy);

    /** Connections each test server has open right now (not counting the one used to ask). */
    protected abstract List<Integer> serverConnections();

    protected CacheOperations<String> start(StrategySpec strategy) {
        if (connectionsBeforeTest == null) {
            connectionsBeforeTest = serverConnections();
        }
        template = startTemplate(strategy);
        return template.withCodec(ValueCodec.utf8());
    }

    @AfterEach
    void closeTemplate() {
        if (template != null) {
            template.close();
        }
        if (connectionsBeforeTest != null) {
            waitForServersToClose(connectionsBeforeTest);
        }
    }

    /**
     * Waits until no server holds more connections than before the test. A server counts a closed connection a moment after
     * the client has closed it; the next test's connection count must not read this test's connections as its baseline.
     * Not an assertion: a test about closing asserts it itself.
     */
    private void waitForServersToClose(List<Integer> before) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (System.nanoTime() < deadline) {
            List<Integer> now = serverConnections();
            boolean closed = true;
            for (int i = 0; i < now.size() && i < before.size(); i++) {
                closed &= now.get(i) <= before.get(i);
            }
            if (closed) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    protected String key(String name) {
        return prefix + name;
    }

    @Strategies.All
    void getSetAndDeleteShouldRoundTrip(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        assertThat(cache.get(key("absent"))).isNull();
        cache.set(key("k"), "värde", Duration.ZERO);
        assertThat(cache.get(key("k"))).isEqualTo("värde");
        assertThat(template.get(key("k"))).isEqualTo("värde".getBytes(StandardCharsets.UTF_8));
        cache.set(key("k"), "second", Duration.ofMinutes(1));
        assertThat(cache.get(key("k"))).isEqualTo("second");
        assertThat(cache.delete(key("k"))).isTrue();
        assertThat(cache.delete(key("k"))).isFalse();
        assertThat(cache.get(key("k"))).isNull();
    }

    @Strategies.All
    void getAllShouldReturnOnlyPresentKeysInRequestOrder(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        for (int i = 0; i < 20; i += 2) {
            cache.set(key("k" + i), "v" + i, Duration.ZERO);
        }
        List<String> wanted = new java.util.ArrayList<>();
        for (int i = 19; i >= 0; i--) {
            wanted.add(key("k" + i));
        }

        Map<String, String> values = cache.getAll(wanted);

        assertThat(values.keySet()).containsExactly(key("k18"), key("k16"), key("k14"), key("k12"), key("k10"), key("k8"),
                key("k6"), key("k4"), key("k2"), key("k0"));
        assertThat(values).containsEntry(key("k4"), "v4");
        assertThat(cache.getAll(List.of(key("x"), key("y")))).isEmpty();
        assertThatThrownBy(() -> cache.getAll(List.of(key("x"), key("y"), key("x"))))
                .isInstanceOf(io.adaptivecache.InvalidCacheInputException.class).hasMessageContaining("more than once");
        // The async form refuses at once too, as its javadoc says, rather than through the future.
        assertThatThrownBy(() -> cache.getAllAsync(List.of(key("k0"), key("k0"))))
                .isInstanceOf(io.adaptivecache.InvalidCacheInputException.class).hasMessageContaining("more than once");
    }

    @Strategies.All
    void aCasTokenShouldOnlyServeTheKeyItWasReadForAndInvalidTtlsShouldBeRefused(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("a"), "1", Duration.ZERO);
        cache.set(key("b"), "2", Duration.ZERO);
        CasValue<String> a = cache.gets(key("a"));

        assertThatThrownBy(() -> cache.cas(key("b"), a.token(), "x", Duration.ZERO))
                .isInstanceOf(io.adaptivecache.InvalidCacheInputException.class).hasMessageContaining("read for key");
        assertThatThrownBy(() -> cache.set(key("a"), "x", Duration.ofSeconds(-1)))
                .isInstanceOf(io.adaptivecache.InvalidCacheInputException.class).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> cache.set(key("a"), "x", template.stats().inputRules().maxTtl().plusSeconds(1)))
                .isInstanceOf(io.adaptivecache.InvalidCacheInputException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> cache.touch(key("a"), null)).isInstanceOf(io.adaptivecache.InvalidCacheInputException.class);

        assertThat(cache.get(key("b"))).as("nothing reached the server").isEqualTo("2");
        assertThat(cache.cas(key("a"), a.token(), "3", Duration.ZERO)).isEqualTo(CasResult.STORED);
        assertThat(cache.get(key("a"))).isEqualTo("3");
    }

    @Strategies.All
    void addAndReplaceShouldRespectPresence(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        assertThat(cache.replace(key("k"), "r", Duration.ZERO)).isFalse();
        assertThat(cache.get(key("k"))).isNull();
        assertThat(cache.add(key("k"), "a", Duration.ZERO)).isTrue();
        assertThat(cache.add(key("k"), "b", Duration.ZERO)).isFalse();
        assertThat(cache.get(key("k"))).isEqualTo("a");
        assertThat(cache.replace(key("k"), "c", Duration.ofMinutes(1))).isTrue();
        assertThat(cache.get(key("k"))).isEqualTo("c");
    }

    @Strategies.All
    void existsShouldTellAPresentKeyFromAnAbsentOneSyncAndAsync(StrategySpec strategy) throws Exception {
        CacheOperations<String> cache = start(strategy);
        assertThat(cache.exists(key("e"))).isFalse();
        cache.set(key("e"), "", Duration.ZERO);
        assertThat(cache.exists(key("e"))).as("an empty value is still present").isTrue();
        assertThat(cache.existsAsync(key("e")).get(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(cache.delete(key("e"))).isTrue();
        assertThat(cache.exists(key("e"))).isFalse();
        assertThat(cache.existsAsync(key("e")).get(5, java.util.concurrent.TimeUnit.SECONDS)).isFalse();
    }

    @Strategies.Shapes
    void valuesShouldExpireAfterTheirTtlAndNotBefore(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("short"), "v", Duration.ofSeconds(1));
        cache.set(key("long"), "v", Duration.ofMinutes(5));
        assertThat(cache.add(key("added"), "v", Duration.ofMillis(1))).isTrue();

        assertThat(cache.get(key("long"))).isEqualTo("v");
        await().atMost(EXPIRY_WAIT).until(() -> cache.get(key("short")) == null && cache.get(key("added")) == null);
        assertThat(cache.get(key("long"))).isEqualTo("v");
    }

    @Strategies.Shapes
    void touchShouldSetAndClearTheTtlOfExistingKeysOnly(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        // memcached counts TTLs in whole seconds from a clock that ticks once a second, so a 1 s TTL
        // may end a few milliseconds after the set; 2 s leaves "kept" at least a second to be touched.
        // "expiring" gets the same TTL later, so once it is gone "kept"'s original TTL has passed too.
        cache.set(key("kept"), "v", TOUCHED_TTL);
        cache.set(key("expiring"), "v", Duration.ZERO);

        assertThat(cache.touch(key("kept"), Duration.ZERO)).isTrue();
        assertThat(cache.touch(key("expiring"), TOUCHED_TTL)).isTrue();
        assertThat(cache.touch(key("absent"), Duration.ofMinutes(1))).isFalse();
        assertThat(cache.touch(key("absent"), Duration.ZERO)).isFalse();

        await().atMost(EXPIRY_WAIT).until(() -> cache.get(key("expiring")) == null);
        assertThat(cache.get(key("kept"))).isEqualTo("v");
    }

    @Strategies.All
    void casShouldStoreOnlyWhenTheValueIsUnchanged(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("k"), "v1", Duration.ZERO);

        CasValue<String> read = cache.gets(key("k"));
        CasValue<String> concurrentRead = cache.gets(key("k"));
        assertThat(read.value()).isEqualTo("v1");
        assertThat(read.token()).isEqualTo(concurrentRead.token());

        assertThat(cache.cas(key("k"), read.token(), "v2", Duration.ZERO)).isEqualTo(CasResult.STORED);
        assertThat(cache.cas(key("k"), concurrentRead.token(), "v3", Duration.ZERO)).isEqualTo(CasResult.EXISTS);
        assertThat(cache.get(key("k"))).isEqualTo("v2");

        cache.delete(key("k"));
        assertThat(cache.cas(key("k"), read.token(), "v4", Duration.ZERO)).isEqualTo(CasResult.NOT_FOUND);
        assertThat(cache.gets(key("k"))).isNull();
        assertThat(cache.get(key("k"))).isNull();
    }

    @Strategies.Shapes
    void casWithATtlShouldExpire(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("k"), "v1", Duration.ZERO);

        assertThat(cache.cas(key("k"), cache.gets(key("k")).token(), "v2", Duration.ofSeconds(1))).isEqualTo(CasResult.STORED);

        assertThat(cache.get(key("k"))).isIn("v2", null);
        await().atMost(EXPIRY_WAIT).until(() -> cache.get(key("k")) == null);
    }

    @Strategies.All
    void incrAndDecrShouldCountFromZero(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        assertThat(cache.incr(key("n"), 5)).isEqualTo(5);
        assertThat(cache.incr(key("n"), 0)).isEqualTo(5);
        assertThat(cache.decr(key("n"), 2)).isEqualTo(3);
        assertThat(cache.get(key("n"))).isEqualTo("3");
        assertThat(cache.incr(key("fresh"), 0)).isZero();
        cache.set(key("preset"), "41", Duration.ZERO);
        assertThat(cache.incr(key("preset"), 1)).isEqualTo(42);
    }

    @Strategies.All
    protected void incrOfTextShouldFailAsAServerErrorAndLeaveEverythingUsable(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);
        cache.set(key("text"), "not a number", Duration.ZERO);

        assertThatThrownBy(() -> cache.incr(key("text"), 1)).isInstanceOf(incrOfTextFailure());

        assertUsableAfterIncrOfText(cache, strategy);
    }

    /**
     * What an incr of a non-numeric value fails with: the server's error reply, translated.
     * @return the exception type
     */
    protected Class<? extends CacheException> incrOfTextFailure() {
        return CacheServerException.class;
    }

    /**
     * After the failed incr: the value is intact and a counter still counts.
     * @param cache the template under test, typed as text
     * @param strategy its strategy
     */
    protected void assertUsableAfterIncrOfText(CacheOperations<String> cache, StrategySpec strategy) {
        assertThat(cache.get(key("text"))).isEqualTo("not a number");
        assertThat(cache.incr(key("n"), 1)).isEqualTo(1);
    }

    @Strategies.All
    void asynchronousFormsShouldCompleteWithTheSameResults(StrategySpec strategy) {
        CacheOperations<String> cache = start(strategy);

        CompletableFuture.allOf(cache.setAsync(key("a"), "1", Duration.ZERO), cache.setAsync(key("b"), "2", Duration.ZERO)).join();

        assertThat(cache.getAsync(key("a")).join()).isEqualTo("1");
        assertThat(cache.getAllAsync(List.of(key("a"), key("b"))).join()).containsOnlyKeys(key("a"), key("b"));
        assertThat(cache.addAsync(key("a"), "x", Duration.ZERO).join()).isFalse();
        assertThat(cache.replaceAsync(key("a"), "x", Duration.ZERO).join()).isTrue();
        CasValue<String> read = cache.getsAsync(key("a")).join();
        assertThat(cache.casAsync(key("a"), read.token(), "y", Duration.ZERO).join()).isEqualTo(CasResult.STORED);
        assertThat(cache.incrAsync(key("n"), 2).join()).isEqualTo(2);
        assertThat(cache.decrAsync(key("n"), 1).join()).isEqualTo(1);
        assertThat(cache.touchAsync(key("a"), Duration.ofMinutes(1)).join()).isTrue();
        assertThat(cache.deleteAsync(key("a")).join()).isTrue();
        assertThat(cache.getAsync(key("a")).join()).isNull();
    }

    @Strategies.All
    void shouldStoreEveryByteValueUnchanged(StrategySpec strategy) {
        start(strategy);
        byte[] binary = new byte[64 * 1024];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }

        template.set(key("binary"), binary, Duration.ZERO);
        template.set(key("empty"), new byte[0], Duration.ZERO);

        assertThat(template.get(key("binary"))).isEqualTo(binary);
        assertThat(template.get(key("empty"))).isEmpty();
    }

    @Strategies.All
    void shouldOpenExactlyTheConnectionsTheStrategyAsksForAndCloseThemAll(StrategySpec strategy) {
        List<Integer> baseline = serverConnections();
        start(strategy);
        // A pool of blocking connections comes with one shared connection for the ...Async forms (the async lane).
        int lane = strategy.type() == StrategyType.POOLED && template.stats().pooledConnectionsBlock() ? 1 : 0;
        int expected = (strategy.type() == StrategyType.POOLED ? Math.max(1, strategy.pool().minIdle()) : strategy.connections()) + lane;

        assertThat(template.stats().openConnections()).isEqualTo(expected);
        // The server counts an accepted connection a moment after the client sees it connected.
        List<Integer> expectedOnServers = baseline.stream().map(count -> count + expected).toList();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(serverConnections()).isEqualTo(expectedOnServers));

        template.close();
        template = null;
        await().atMost(Duration.ofSeconds(5)).until(() -> serverConnections().equals(baseline));
    }
}
