package io.adaptivecache.near;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.adaptive.InMemoryBackend;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a read that misses locally may take the answer of a read already on its way (single
 * flight), over a backend whose gets a test holds: never when a write of this instance completed
 * after that read was sent. (That sharing happens at all, and saves the server its reads, is shown
 * on a real server by {@link NearCacheSingleFlightIntegrationTests}.)
 */
class SharedReadTests {

    private final InMemoryBackend backend = new InMemoryBackend();
    private final ManagedCacheTemplate template = this.backend.template("memory", StrategySpec.multi(), Duration.ofSeconds(1));
    private final ExecutorService callers = Executors.newFixedThreadPool(2);
    /** The answer of the read a test holds on its way (see {@link #heldRead}), completed when the test says. */
    private final CompletableFuture<byte[]> held = new CompletableFuture<>();

    @BeforeEach
    void start() {
        this.template.start();
    }

    @AfterEach
    void close() {
        this.callers.shutdownNow();
        this.template.close();
    }

    private NearCachingTemplate near(boolean writeThrough) {
        return near(writeThrough, Duration.ofSeconds(1), null);
    }

    private NearCachingTemplate near(boolean writeThrough, Duration stalenessBound, InvalidationSource expiries) {
        InvalidationSubscription serving = new InvalidationSubscription() {
            @Override
            public boolean isServing() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        return new NearCachingTemplate("near", this.template, new LocalTier(NearCacheSettings.builder().keyPrefixes("k:").build(),
                Duration.ofMinutes(1).toNanos(), writeThrough), serving, stalenessBound, expiries, "a test");
    }

    @Test
    void aReadThatStartsAfterAnOwnWriteCompletedShouldNotTakeTheAnswerOfAReadSentBeforeIt() throws Exception {
        // Without write-through, so that the read after the write misses locally and must decide whether to share.
        NearCachingTemplate near = near(false);
        this.template.set("k:1", bytes("old"), Duration.ZERO);
        Future<String> before = heldRead(near, "k:1");

        near.set("k:1", bytes("new"), Duration.ZERO);
        Future<String> after = readOnACaller(near);
        // Sharing would keep it waiting for the held read; its own read answers at once.
        assertThat(after.get(5, TimeUnit.SECONDS)).as("a read that began after this instance's write returned").isEqualTo("new");

        this.held.complete(bytes("old"));
        assertThat(before.get(5, TimeUnit.SECONDS)).as("the read that overlapped the write").isEqualTo("old");
    }

    @Test
    void aReadThatStartsWhileAnotherOfTheSameKeyIsOnItsWayShouldTakeItsAnswer() throws Exception {
        NearCachingTemplate near = near(true);
        Future<String> first = heldReadOfV(near);

        Future<String> second = readOnACaller(near);
        CompletableFuture<String> third = near.getAsync("k:1").thenApply(SharedReadTests::text);
        // Both have missed locally while the first is held: from here on they either wait for it or read for themselves.
        awaitLocalMisses(near, 3);
        assertThat(second.isDone()).as("waiting for the read on its way, not reading for itself").isFalse();
        assertThat(third.isDone()).isFalse();
        // The map holds "v" too: a read of its own would have answered by now. The held read answers "shared".
        this.held.complete(bytes("shared"));
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("shared");
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("shared");
        assertThat(third.get(5, TimeUnit.SECONDS)).isEqualTo("shared");
    }

    @Test
    void whenTheReadOnItsWayFailsTheReadsSharingItShouldTryForThemselves() throws Exception {
        NearCachingTemplate near = near(true);
        Future<String> first = heldReadOfV(near);
        Future<String> second = readOnACaller(near);
        // It has missed while the first is held, so it is waiting for that read when it fails.
        awaitLocalMisses(near, 2);

        this.held.completeExceptionally(new IllegalStateException("connection lost"));
        assertThat(second.get(5, TimeUnit.SECONDS)).as("its own read, after the shared one failed").isEqualTo("v");
        assertThat(first).failsWithin(Duration.ofSeconds(5));
    }

    @Test
    void aReadThatStartsLaterThanTheStalenessBoundAfterTheReadOnItsWayWasSentShouldSendItsOwn() throws Exception {
        // Without invalidations (memcached) nothing tells that another instance wrote meanwhile: only the time does.
        NearCachingTemplate near = near(false, Duration.ofMillis(100), null);
        this.template.set("k:1", bytes("old"), Duration.ZERO);
        long sent = System.nanoTime();
        Future<String> slow = heldRead(near, "k:1");
        this.template.set("k:1", bytes("new"), Duration.ZERO); // another instance's write, straight to the server
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> System.nanoTime() - sent > Duration.ofMillis(150).toNanos());
        assertThat(text(near.get("k:1"))).as("a read started 150 ms after the held one was sent, bound 100 ms").isEqualTo("new");
        assertThat(text(near.getAsync("k:1").get(5, TimeUnit.SECONDS))).isEqualTo("new");
        this.held.complete(bytes("old"));
        assertThat(slow.get(5, TimeUnit.SECONDS)).isEqualTo("old");
    }

    @Test
    void aCopyShouldBeKeptNoLongerThanTheSourceSaysTheKeyLives() throws Exception {
        java.util.Map<String, CompletableFuture<Long>> answers = new java.util.concurrent.ConcurrentHashMap<>();
        answers.put("k:short", CompletableFuture.completedFuture(100L));
        answers.put("k:none", CompletableFuture.completedFuture(-1L));
        answers.put("k:gone", CompletableFuture.completedFuture(-2L));
        answers.put("k:failed", CompletableFuture.failedFuture(new IllegalStateException("no answer")));
        NearCachingTemplate near = near(true, Duration.ofSeconds(1), answering(answers));
        for (String key : answers.keySet()) {
            this.template.set(key, bytes("v"), Duration.ZERO);
            assertThat(text(near.get(key))).isEqualTo("v");
        }
        long sent = System.nanoTime();
        assertThat(near.tier().lookup("k:none")).as("no expiry: the time to live").isNotNull();
        assertThat(near.tier().lookup("k:gone")).as("no such key when asked, a value read: a write came between").isNull();
        assertThat(near.tier().lookup("k:failed")).as("no answer: nothing kept").isNull();
        LocalTier.Entry capped = near.tier().lookup("k:short");
        assertThat(capped).isNotNull();
        assertThat(capped.expiresAtNanos() - capped.sentAtNanos()).isEqualTo(Duration.ofMillis(100).toNanos());
        Awaitility.await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                .until(() -> near.tier().lookup("k:short") == null);
        assertThat(near.tier().lookup("k:none")).isNotNull();
        assertThat(System.nanoTime() - sent).isLessThan(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void aCopyKeptBeforeTheAnswerCameShouldBeCappedOrDroppedWhenItComes() throws Exception {
        java.util.Map<String, CompletableFuture<Long>> answers = new java.util.concurrent.ConcurrentHashMap<>();
        CompletableFuture<Long> shortLived = new CompletableFuture<>();
        CompletableFuture<Long> gone = new CompletableFuture<>();
        answers.put("k:short", shortLived);
        answers.put("k:gone", gone);
        NearCachingTemplate near = near(true, Duration.ofSeconds(1), answering(answers));
        for (String key : answers.keySet()) {
            this.template.set(key, bytes("v"), Duration.ZERO);
            assertThat(text(near.get(key))).isEqualTo("v");
            assertThat(near.tier().lookup(key)).as("kept at once, the answer still to come").isNotNull();
        }
        shortLived.complete(100L);
        gone.complete(-2L);
        LocalTier.Entry capped = near.tier().lookup("k:short");
        assertThat(capped.expiresAtNanos() - capped.sentAtNanos()).isEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(near.tier().lookup("k:gone")).as("the key was gone when asked: a write came between").isNull();
    }

    /** A source that answers time-to-live questions from a map and does nothing else. */
    private static InvalidationSource answering(java.util.Map<String, CompletableFuture<Long>> answers) {
        return new InvalidationSource() {
            @Override
            public InvalidationSubscription subscribe(java.util.Collection<String> keyPrefixes, InvalidationListener listener) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Duration stalenessBound() {
                return Duration.ofSeconds(1);
            }

            @Override
            public boolean isTracking() {
                return true;
            }

            @Override
            public String describe() {
                return "answers";
            }

            @Override
            public CompletableFuture<Long> remainingTimeToLive(String key) {
                return answers.get(key);
            }

            @Override
            public void close() {
            }
        };
    }

    /** Puts "v" under {@code k:1} in the server and starts a read of it that the backend holds (see {@link #heldRead}). */
    private Future<String> heldReadOfV(NearCachingTemplate near) {
        this.template.set("k:1", bytes("v"), Duration.ZERO);
        return heldRead(near, "k:1");
    }

    /** Starts a read of {@code k:1} through the near cache on a caller thread. */
    private Future<String> readOnACaller(NearCachingTemplate near) {
        return this.callers.submit(() -> text(near.get("k:1")));
    }

    /** Waits until the near cache has missed locally {@code misses} times: each read it has begun is past its local lookup. */
    private static void awaitLocalMisses(NearCachingTemplate near, long misses) {
        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                .until(() -> near.stats().localMisses() == misses);
    }

    /** Starts a read of the key on a caller thread whose get the backend holds; returns once it is held. */
    private Future<String> heldRead(NearCachingTemplate near, String key) {
        this.backend.holdNextGet.set(this.held);
        Future<String> read = this.callers.submit(() -> text(near.get(key)));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> this.backend.holdNextGet.get() == null);
        return read;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
