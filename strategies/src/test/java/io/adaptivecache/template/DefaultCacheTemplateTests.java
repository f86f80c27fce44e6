package io.adaptivecache.template;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.CommandHandler;
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ExceptionTranslator;
import io.adaptivecache.strategy.NoIoConnections;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The template's own duties, on a backend that records commands instead of sending them. */
class DefaultCacheTemplateTests {

    private final RecordingBackend backend = new RecordingBackend();
    private final DefaultCacheTemplate<Object> template = new DefaultCacheTemplate<>(backend,
            TemplateOptions.of("test", StrategySpec.single(), Duration.ofSeconds(1)));

    @BeforeEach
    void start() {
        template.start();
    }

    @AfterEach
    void close() {
        template.close();
    }

    @Test
    void shouldRejectBadInputWithoutIssuingAnyCommand() {
        byte[] value = {1};
        List<Runnable> badCalls = List.of(() -> template.get(null), () -> template.getAsync(""),
                () -> template.set("k v", value, Duration.ZERO), () -> template.set("k", null, Duration.ZERO),
                () -> template.set("k", new byte[65], Duration.ZERO), () -> template.add("k", value, Duration.ofSeconds(-1)),
                () -> template.replaceAsync("k", value, null), () -> template.incr("k", -1),
                () -> template.cas("k", null, value, Duration.ZERO), () -> template.getAll(Arrays.asList("ok", null)),
                () -> template.getAll(null), () -> template.touch("k", Duration.ofDays(2)),
                () -> template.withCodec(ValueCodec.utf8()).set("k", null, Duration.ZERO));

        for (Runnable call : badCalls) {
            assertThatThrownBy(call::run).isInstanceOf(InvalidCacheInputException.class);
        }
        assertThat(backend.issued).isEmpty();
    }

    @Test
    void shouldRefuseDuplicateKeysAndSkipTheServerForAnEmptyMultiGet() {
        assertThat(template.getAll(Collections.emptyList())).isEmpty();
        assertThatThrownBy(() -> template.getAll(List.of("a", "b", "a"))).isInstanceOf(InvalidCacheInputException.class)
                .hasMessageContaining("\"a\" appears more than once");
        template.getAll(List.of("a", "b"));

        assertThat(backend.issued).containsExactly("getAll [a, b]");
    }

    @Test
    void shouldRefuseACasTokenReadForAnotherKeyOrFromAnotherBackend() {
        CasToken forA = template.gets("a").token();

        assertThatThrownBy(() -> template.cas("b", forA, new byte[] { 1 }, Duration.ZERO))
                .isInstanceOf(InvalidCacheInputException.class).hasMessageContaining("read for key \"a\", not \"b\"");
        assertThatThrownBy(() -> template.cas("a", CasToken.ofDigest("redis", "a", "00"), new byte[] { 1 }, Duration.ZERO))
                .isInstanceOf(InvalidCacheInputException.class).hasMessageContaining("read from redis");
        template.cas("a", forA, new byte[] { 1 }, Duration.ZERO);

        assertThat(backend.issued).containsExactly("cas a");
    }

    @Test
    void degradeModeShouldAnswerFailedReadsAsAMissAndSkipFailedWritesButStillThrowCountersAndBadInput() {
        DefaultCacheTemplate<Object> degrading = new DefaultCacheTemplate<>(backend,
                TemplateOptions.of("degrading", StrategySpec.single(), Duration.ofSeconds(1))
                        .withFailureMode(io.adaptivecache.CacheFailureMode.DEGRADE));
        degrading.start();
        try {
            assertThat(degrading.get("fails")).isNull();
            assertThat(degrading.gets("fails")).isNull();
            degrading.set("fails", new byte[] { 1 }, Duration.ZERO);
            assertThat(degrading.add("fails", new byte[] { 1 }, Duration.ZERO)).isFalse();
            assertThat(degrading.delete("fails")).isFalse();
            assertThatThrownBy(() -> degrading.incr("fails", 1)).isInstanceOf(CacheServerException.class);
            assertThatThrownBy(() -> degrading.get("bad key")).isInstanceOf(InvalidCacheInputException.class);
            assertThat(degrading.get("fine")).isEqualTo("fine".getBytes());

            assertThat(degrading.stats().degradedReads()).isEqualTo(2);
            assertThat(degrading.stats().skippedWrites()).isEqualTo(3);
            assertThat(template.stats().degradedReads()).as("fail-fast never degrades").isZero();
        }
        finally {
            degrading.close();
        }
    }

    @Test
    void shouldGiveSynchronousCallersTheTranslatedExceptionItself() {
        assertThatThrownBy(() -> template.get("fails")).isInstanceOf(CacheServerException.class)
                .hasMessage("translated: server said no");
    }

    @Test
    void typedViewShouldEncodeAndDecodeThroughItsCodec() {
        CacheOperations<String> strings = template.withCodec(ValueCodec.utf8());

        strings.set("greeting", "héllo", Duration.ZERO);

        assertThat(backend.issued).containsExactly("set greeting 6 bytes PT0S");
        assertThat(strings.get("echo")).isEqualTo("echo");
        assertThat(strings.gets("echo").value()).isEqualTo("echo");
        assertThat(strings.getAll(List.of("x", "y"))).containsExactly(Map.entry("x", "x"), Map.entry("y", "y"));
    }

    @Test
    void shouldCountTheBytesOfValuesWrittenAndFoundIntoTheWindow() {
        long second = Duration.ofSeconds(1).toNanos();
        template.sensors().sample(second, template.stats().strategyStats(), second);

        template.set("k", new byte[10], Duration.ZERO);
        template.addAsync("k", new byte[20], Duration.ZERO).join();
        template.replace("k", new byte[30], Duration.ZERO);
        CasToken token = template.gets("abc").token(); // a value of 3 bytes
        template.casAsync("abc", token, new byte[40], Duration.ZERO).join();
        template.get("four");
        template.getAsync("fives").join();
        template.getAll(List.of("a", "bb")); // 1 + 2
        assertThat(template.withCodec(ValueCodec.utf8()).get("xy")).isEqualTo("xy");
        template.delete("k");
        template.incr("n", 1);
        assertThatThrownBy(() -> template.get("fails")).isInstanceOf(CacheServerException.class); // found nothing

        io.adaptivecache.metrics.WindowSample window = template.sensors().sample(2 * second, template.stats().strategyStats(), second);

        assertThat(window.calls()).isEqualTo(12);
        assertThat(window.meanValueBytes()).as("117 bytes over 12 calls").isEqualTo(117.0 / 12);
        assertThat(window.minLatencyNanos()).isPositive().isLessThanOrEqualTo(window.p50LatencyNanos());
    }

    /** Answers from memory and records what would have gone on the wire. */
    static final class RecordingBackend implements CacheBackend<Object>, CommandHandler<Object> {

        final List<String> issued = new CopyOnWriteArrayList<>();

        @Override
        public String kind() {
            return "recording";
        }

        @Override
        public ConnectionFactory<Object> connections() {
            return new NoIoConnections<>("memory") {
                @Override
                public Object open() {
                    return new Object();
                }
            };
        }

        @Override
        public CacheCommands<Object> commands() {
            return CacheCommands.of(this);
        }

        @Override
        public CacheInputRules inputRules() {
            return CacheInputRules.builder("recording").maxValueBytes(64).printableKeysOnly(true)
                    .maxTtl(Duration.ofDays(1)).build();
        }

        @Override
        public ExceptionTranslator exceptionTranslator() {
            return failure -> new CacheServerException("translated: " + failure.getMessage(), failure);
        }

        @Override
        public Duration commandTimeout() {
            return Duration.ofSeconds(1);
        }

        @Override
        public void close() {
        }

        private static <T> CompletionStage<T> done(T value) {
            return CompletableFuture.completedFuture(value);
        }

        @Override
        public CompletionStage<byte[]> get(Object connection, String key) {
            if (key.equals("fails")) {
                return CompletableFuture.failedFuture(new IllegalStateException("server said no"));
            }
            return done(key.getBytes());
        }

        @Override
        public CompletionStage<Map<String, byte[]>> getAll(Object connection, List<String> keys) {
            issued.add("getAll " + keys);
            Map<String, byte[]> values = new java.util.LinkedHashMap<>();
            keys.forEach(key -> values.put(key, key.getBytes()));
            return done(values);
        }

        private static <T> CompletionStage<T> failing() {
            return CompletableFuture.failedFuture(new IllegalStateException("server said no"));
        }

        @Override
        public CompletionStage<Void> set(Object connection, String key, byte[] value, Duration ttl) {
            if (key.equals("fails")) {
                return failing();
            }
            issued.add("set " + key + " " + value.length + " bytes " + ttl);
            return done(null);
        }

        @Override
        public CompletionStage<Boolean> add(Object connection, String key, byte[] value, Duration ttl) {
            if (key.equals("fails")) {
                return failing();
            }
            issued.add("add " + key);
            return done(true);
        }

        @Override
        public CompletionStage<Boolean> replace(Object connection, String key, byte[] value, Duration ttl) {
            issued.add("replace " + key);
            return done(true);
        }

        @Override
        public CompletionStage<Boolean> exists(Object connection, String key) {
            if (key.equals("fails")) {
                return failing();
            }
            return done(true);
        }

        @Override
        public CompletionStage<Boolean> delete(Object connection, String key) {
            if (key.equals("fails")) {
                return failing();
            }
            issued.add("delete " + key);
            return done(true);
        }

        @Override
        public CompletionStage<CasValue<byte[]>> gets(Object connection, String key) {
            if (key.equals("fails")) {
                return failing();
            }
            return done(new CasValue<>(key.getBytes(), CasToken.ofVersion("recording", key, 1)));
        }

        @Override
        public CompletionStage<CasResult> cas(Object connection, String key, CasToken token, byte[] value, Duration ttl) {
            issued.add("cas " + key);
            return done(CasResult.STORED);
        }

        @Override
        public CompletionStage<Long> incr(Object connection, String key, long delta) {
            if (key.equals("fails")) {
                return failing();
            }
            issued.add("incr " + key);
            return done(delta);
        }

        @Override
        public CompletionStage<Long> decr(Object connection, String key, long delta) {
            issued.add("decr " + key);
            return done(0L);
        }

        @Override
        public CompletionStage<Boolean> touch(Object connection, String key, Duration ttl) {
            issued.add("touch " + key);
            return done(true);
        }
    }

    @Test
    void shouldNotLeaveCallsInFlightAfterFailures() {
        assertThatThrownBy(() -> template.get("fails")).isInstanceOf(CacheException.class);
        List<String> keys = new ArrayList<>();
        keys.add("a");
        template.getAll(keys);

        assertThat(template.stats().strategyStats().inFlight()).isZero();
    }
}
