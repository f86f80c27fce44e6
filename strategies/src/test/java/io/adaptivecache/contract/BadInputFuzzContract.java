package io.adaptivecache.contract;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.command.CacheInputRules;
import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Random keys (unicode, spaces, CR/LF, NUL, very long, empty, null), values (empty, binary, near
 * and over the limit, null) and TTLs thrown at every operation of a backend on its real server,
 * with a seeded generator and a bounded count. The test decides validity on its own, from the
 * documented limits: invalid input must be refused with a clear message before any command is
 * issued; valid input must behave as an in-memory model says, byte for byte; a sentinel written
 * first must read back unchanged at the end, and the connection must serve throughout.
 * Set {@code -Dfuzz.seed=N} to replay a run.
 */
public abstract class BadInputFuzzContract {

    private static final int CASES = 1500;

    private DefaultCacheTemplate<?> template;

    /** Builds and starts a template to the test server with this strategy. */
    protected abstract DefaultCacheTemplate<?> startTemplate(StrategySpec strategy);

    /** Whether the backend refuses spaces and control characters in keys (memcached's text-era rule). */
    protected abstract boolean printableKeysOnly();

    @AfterEach
    void close() {
        if (this.template != null) {
            this.template.close();
        }
    }

    @Test
    void randomInputShouldBeRefusedBeforeIoOrRoundTripExactly() {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        Random random = new Random(seed);
        this.template = startTemplate(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        CacheInputRules rules = this.template.inputRules();
        String run = "fz" + Long.toHexString(seed & 0xffffff) + ":";
        byte[] sentinel = bytes(random, 1000);
        this.template.set(run + "sentinel", sentinel, Duration.ZERO);
        Map<String, byte[]> model = new HashMap<>();
        Inputs inputs = new Inputs(random, run, rules);
        int refused = 0;

        for (int i = 0; i < CASES; i++) {
            String key = inputs.key();
            byte[] value = inputs.value();
            Duration ttl = inputs.ttl();
            int operation = random.nextInt(9);
            String invalidity = invalidity(operation, key, value, ttl, rules);
            String what = "case " + i + " (seed " + seed + "): op " + operation + ", key " + describe(key) + ", value "
                    + (value == null ? "null" : value.length + " bytes") + ", ttl " + ttl + "; expected "
                    + (invalidity == null ? "valid" : invalidity);
            if (invalidity != null) {
                long issued = this.template.sensors().totalCalls();
                Throwable thrown = catchThrowable(() -> issueAsync(operation, key, value, ttl));
                assertThat(thrown).as("refused before any I/O: " + what).isInstanceOf(InvalidCacheInputException.class);
                assertThat(thrown.getMessage()).as(what).isNotBlank();
                assertThat(this.template.sensors().totalCalls()).as("nothing issued for " + what).isEqualTo(issued);
                refused++;
            }
            else {
                runValid(operation, key, value, ttl, model, what);
            }
            if (i % 100 == 0) {
                assertThat(this.template.get(run + "sentinel")).as("connection still serving at " + what).isEqualTo(sentinel);
            }
        }

        assertThat(refused).as("the generator produced invalid input").isGreaterThan(CASES / 5);
        assertThat(refused).as("the generator produced valid input").isLessThan(CASES * 4 / 5);
        assertThat(this.template.get(run + "sentinel")).as("the sentinel is unchanged").isEqualTo(sentinel);
        for (Map.Entry<String, byte[]> entry : model.entrySet()) {
            assertThat(this.template.get(entry.getKey())).as("stored " + describe(entry.getKey())).isEqualTo(entry.getValue());
        }
    }

    private void issueAsync(int operation, String key, byte[] value, Duration ttl) {
        switch (operation) {
            case 0 -> this.template.getAsync(key);
            case 1 -> this.template.setAsync(key, value, ttl);
            case 2 -> this.template.addAsync(key, value, ttl);
            case 3 -> this.template.replaceAsync(key, value, ttl);
            case 4 -> this.template.deleteAsync(key);
            case 5 -> this.template.touchAsync(key, ttl);
            case 6 -> this.template.getAllAsync(Arrays.asList(key, key + "~"));
            case 7 -> this.template.incrAsync(key == null ? null : key + "#n", 1);
            default -> this.template.casAsync(key, CasToken.ofVersion(this.template.backendKind(), key == null ? "" : key, 1),
                    value, ttl);
        }
    }

    private void runValid(int operation, String key, byte[] value, Duration ttl, Map<String, byte[]> model, String what) {
        boolean present = model.containsKey(key);
        switch (operation) {
            case 0 -> assertThat(this.template.get(key)).as(what).isEqualTo(model.get(key));
            case 1 -> {
                this.template.set(key, value, ttl);
                model.put(key, value);
            }
            case 2 -> {
                assertThat(this.template.add(key, value, ttl)).as(what).isEqualTo(!present);
                model.putIfAbsent(key, value);
            }
            case 3 -> {
                assertThat(this.template.replace(key, value, ttl)).as(what).isEqualTo(present);
                model.computeIfPresent(key, (k, old) -> value);
            }
            case 4 -> {
                assertThat(this.template.delete(key)).as(what).isEqualTo(present);
                model.remove(key);
            }
            case 5 -> assertThat(this.template.touch(key, ttl)).as(what).isEqualTo(present);
            case 6 -> {
                Map<String, byte[]> expected = new LinkedHashMap<>();
                for (String k : List.of(key, key + "~")) {
                    if (model.containsKey(k)) {
                        expected.put(k, model.get(k));
                    }
                }
                Map<String, byte[]> actual = this.template.getAll(List.of(key, key + "~"));
                assertThat(actual.keySet()).as(what).containsExactlyElementsOf(expected.keySet());
                expected.forEach((k, v) -> assertThat(actual.get(k)).as(what).isEqualTo(v));
            }
            case 7 -> {
                // Counters only on keys the model knows to be absent or numeric: a server's error reply is not the subject here.
                String counter = key + "#n";
                long start = model.containsKey(counter) ? Long.parseLong(new String(model.get(counter), StandardCharsets.US_ASCII)) : 0;
                if (!model.containsKey(counter)) {
                    this.template.set(counter, "0".getBytes(StandardCharsets.US_ASCII), Duration.ZERO);
                }
                long next = this.template.incr(counter, 3);
                assertThat(next).as(what).isEqualTo(start + 3);
                model.put(counter, Long.toString(next).getBytes(StandardCharsets.US_ASCII));
            }
            default -> {
                CasValue<byte[]> read = this.template.gets(key);
                if (!present) {
                    assertThat(read).as(what).isNull();
                    return;
                }
                assertThat(read.value()).as(what).isEqualTo(model.get(key));
                assertThat(this.template.cas(key, read.token(), value, ttl)).as(what).isEqualTo(CasResult.STORED);
                model.put(key, value);
            }
        }
    }

    /** Why the test expects the input to be refused, worked out from the documented limits alone. */
    private String invalidity(int operation, String key, byte[] value, Duration ttl, CacheInputRules rules) {
        // Counters use key#n; getAll reads key and key~.
        String keyProblem = keyProblem(operation == 7 && key != null ? key + "#n" : key, rules);
        if (keyProblem == null && operation == 6) {
            keyProblem = keyProblem(key + "~", rules);
        }
        if (keyProblem != null) {
            return keyProblem;
        }
        boolean writes = operation == 1 || operation == 2 || operation == 3 || operation == 8;
        if (writes && (value == null || value.length > rules.maxValueBytes())) {
            return "a bad value";
        }
        boolean hasTtl = writes || operation == 5;
        if (hasTtl && (ttl == null || ttl.isNegative() || ttl.compareTo(rules.maxTtl()) > 0)) {
            return "a bad TTL";
        }
        return null;
    }

    private String keyProblem(String key, CacheInputRules rules) {
        if (key == null || key.isEmpty()) {
            return "a null or empty key";
        }
        if (key.getBytes(StandardCharsets.UTF_8).length > rules.maxKeyBytes()) {
            return "an over-long key";
        }
        if (printableKeysOnly() && key.chars().anyMatch(c -> c <= 0x20 || c == 0x7F)) {
            return "a space or control character";
        }
        return null;
    }

    private static String describe(String key) {
        if (key == null) {
            return "null";
        }
        String shown = key.length() > 40 ? key.substring(0, 40) + "...(" + key.length() + " chars)" : key;
        StringBuilder escaped = new StringBuilder();
        shown.codePoints().forEach(c -> escaped.append(c < 0x20 || c == 0x7F ? String.format("\\u%04x", c)
                : new String(Character.toChars(c))));
        return "\"" + escaped + "\"";
    }

    private static byte[] bytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** The generator: mostly plausible input, with every kind of bad input mixed in. */
    private static final class Inputs {

        private static final String[] FRAGMENTS = { "user:42", "naïve", "日本語", "emoji-\uD83D\uDE00", "a b", "line\r\nbreak",
            "nul\u0000byte", "tab\tkey", "del\u007Fkey", "x", "{tag}:k", "ключ" };

        private final Random random;
        private final String run;
        private final CacheInputRules rules;
        private final List<String> reused = new ArrayList<>();

        Inputs(Random random, String run, CacheInputRules rules) {
            this.random = random;
            this.run = run;
            this.rules = rules;
        }

        String key() {
            int kind = this.random.nextInt(20);
            String key;
            if (kind == 0) {
                return null;
            }
            if (kind == 1) {
                return "";
            }
            if (kind == 2 || kind == 3) {
                // Around the byte limit, in multi-byte characters so that chars and bytes differ.
                int target = this.rules.maxKeyBytes() - 3 + this.random.nextInt(8);
                StringBuilder builder = new StringBuilder(this.run);
                while (builder.toString().getBytes(StandardCharsets.UTF_8).length < target) {
                    builder.append(this.random.nextBoolean() ? "é" : "k");
                }
                return builder.toString();
            }
            if (kind < 8 && !this.reused.isEmpty()) {
                return this.reused.get(this.random.nextInt(this.reused.size()));
            }
            key = this.run + FRAGMENTS[this.random.nextInt(FRAGMENTS.length)] + this.random.nextInt(20);
            this.reused.add(key);
            return key;
        }

        byte[] value() {
            int kind = this.random.nextInt(40);
            return switch (kind) {
                case 0 -> null;
                case 1 -> new byte[0];
                case 2 -> new byte[this.rules.maxValueBytes() + 1 + this.random.nextInt(1024)];
                case 3 -> bytes(this.random, Math.max(1, this.rules.maxValueBytes() - this.random.nextInt(1024)));
                default -> bytes(this.random, this.random.nextInt(300));
            };
        }

        Duration ttl() {
            int kind = this.random.nextInt(20);
            return switch (kind) {
                case 0 -> null;
                case 1 -> Duration.ofSeconds(-1 - this.random.nextInt(1000));
                case 2 -> this.rules.maxTtl().plusSeconds(1 + this.random.nextInt(1000));
                case 3 -> Duration.ZERO;
                default -> Duration.ofHours(1 + this.random.nextInt(100));
            };
        }
    }
}
