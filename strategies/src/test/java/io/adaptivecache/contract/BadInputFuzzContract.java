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
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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

    private ManagedCacheTemplate template;

    /** Builds and starts a template to the test server with this strategy. */
    protected abstract ManagedCacheTemplate startTemplate(StrategySpec strategy);

    /** Whether the backend refuses spaces and control characters in keys (memcached's text-era rule). */
    protected abstract boolean printableKeysOnly();

    /**
     * Bytes the server has read from all its clients since it started (Redis
     * {@code total_net_input_bytes}, memcached {@code bytes_read}), summed over every node of a
     * cluster. Reading it may itself add bytes, as long as each read adds the same number.
     */
    protected abstract long serverBytesRead();

    /**
     * What the server has read and run, read in one go: {@link #serverBytesRead()} and
     * {@link ServerCounters#foreignCommands()} from the same reply, so that a window's control
     * pair still sees each read add the same bytes. By default no foreign commands are known.
     * @return the counters now
     */
    protected ServerCounters serverCounters() {
        return new ServerCounters(serverBytesRead(), 0);
    }

    /**
     * The server's counters at one moment.
     * @param bytesRead as {@link #serverBytesRead()}
     * @param foreignCommands how many commands the server has run, since it started, that neither
     *     the test's own reads nor any call of the template sends (a replica's {@code REPLCONF ACK}
     *     to its master, the client's topology refresh): a window in which this moved holds bytes
     *     that are not the template's calls, and is not judged but run again
     */
    public record ServerCounters(long bytesRead, long foreignCommands) {
    }

    /** How many times a window with stray bytes is tried again before the test fails. */
    private static final int WINDOW_ATTEMPTS = 3;

    /**
     * How many windows with foreign commands are run again, at most, before the test fails: such
     * traffic comes a few times a second and a window lasts milliseconds, so a refusal that
     * itself sent a foreign command (and so disturbed every window) is the only way to use them all.
     */
    private static final int DISTURBED_WINDOWS = 20;

    /**
     * Keys that, read once each in turn, reach every node the template may send a key to: one
     * key for a single server; one per master for a cluster. The flush barrier reads them.
     * @param prefix a prefix of this run's keys
     * @return the keys
     */
    protected List<String> barrierKeys(String prefix) {
        return List.of(prefix + "barrier");
    }

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
        CacheInputRules rules = this.template.stats().inputRules();
        String run = "fz" + Long.toHexString(seed & 0xffffff) + ":";
        byte[] sentinel = bytes(random, 1000);
        this.template.set(run + "sentinel", sentinel, Duration.ZERO);
        Map<String, byte[]> model = new HashMap<>();
        Inputs inputs = new Inputs(random, run, rules);
        int refused = 0;
        List<String> barrier = barrierKeys(run);
        long barrierBytes = barrierBytes(barrier);

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
                assertRefusedWithoutABytePastTheBarrier(() -> {
                    Throwable thrown = catchThrowable(() -> issueAsync(operation, key, value, ttl));
                    assertThat(thrown).as("refused before any I/O: " + what).isInstanceOf(InvalidCacheInputException.class);
                    assertThat(thrown.getMessage()).as(what).isNotBlank();
                }, barrier, barrierBytes, what);
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

    static List<StrategySpec> refusalStrategies() {
        return List.of(StrategySpec.multi(2, SelectorType.ROUND_ROBIN),
                StrategySpec.pooled(new PoolSettings(2, 2, 2, Duration.ofSeconds(1))));
    }

    /**
     * Every operation, synchronous and ...Async, refuses each kind of invalid input it can be
     * given with {@link InvalidCacheInputException} and sends nothing: the server's own count of
     * bytes read from clients does not move. A stats read adds its own bytes, so each window is
     * read twice first (a control pair with nothing in between) and the calls must add exactly
     * nothing on top of that. Traffic that is not the template's (a replica's once-a-second
     * acknowledgement to its master, a pool's idle check) may land in a window by chance, so a
     * window that moved is tried again, up to {@value #WINDOW_ATTEMPTS} times: a refusal that
     * sends a command does so every time and fails every attempt. Traffic the backend can name
     * ({@link ServerCounters#foreignCommands()}) is not left to chance: a window it disturbed is
     * not judged at all, but run again.
     */
    @ParameterizedTest
    @MethodSource("refusalStrategies")
    void everyOperationSyncAndAsyncShouldRefuseInvalidInputWithoutAByteReachingTheServer(StrategySpec strategy) {
        this.template = startTemplate(strategy);
        CacheInputRules rules = this.template.stats().inputRules();
        String valid = "refused:valid";
        byte[] sentinel = { 1, 2, 3 };
        this.template.set(valid, sentinel, Duration.ZERO);
        CasToken token = this.template.gets(valid).token();
        this.template.getAsync(valid).join();

        List<String> badKeys = new ArrayList<>(Arrays.asList(null, "", "k".repeat(rules.maxKeyBytes() + 1)));
        if (printableKeysOnly()) {
            badKeys.addAll(List.of("a b", "line\r\nbreak", "nul\u0000byte"));
        }
        List<byte[]> badValues = Arrays.asList(null, new byte[rules.maxValueBytes() + 1]);
        List<Duration> badTtls = Arrays.asList(null, Duration.ofSeconds(-1), rules.maxTtl().plusSeconds(1));
        byte[] value = { 9 };
        Duration ttl = Duration.ofMinutes(5);
        CasToken otherKeysToken = CasToken.ofVersion(this.template.stats().backendKind(), valid + "-other", 1);
        CasToken otherBackendsToken = CasToken.ofVersion("elsewhere", valid, 1);

        Map<String, List<ThrowingCallable>> refusals = new LinkedHashMap<>();
        for (boolean async : new boolean[] { false, true }) {
            String form = async ? "Async" : "";
            List<ThrowingCallable> get = new ArrayList<>();
            List<ThrowingCallable> gets = new ArrayList<>();
            List<ThrowingCallable> delete = new ArrayList<>();
            List<ThrowingCallable> incr = new ArrayList<>();
            List<ThrowingCallable> decr = new ArrayList<>();
            List<ThrowingCallable> touch = new ArrayList<>();
            List<ThrowingCallable> getAll = new ArrayList<>();
            List<ThrowingCallable> set = new ArrayList<>();
            List<ThrowingCallable> add = new ArrayList<>();
            List<ThrowingCallable> replace = new ArrayList<>();
            List<ThrowingCallable> cas = new ArrayList<>();
            for (String key : badKeys) {
                get.add(async ? () -> this.template.getAsync(key) : () -> this.template.get(key));
                gets.add(async ? () -> this.template.getsAsync(key) : () -> this.template.gets(key));
                delete.add(async ? () -> this.template.deleteAsync(key) : () -> this.template.delete(key));
                incr.add(async ? () -> this.template.incrAsync(key, 1) : () -> this.template.incr(key, 1));
                decr.add(async ? () -> this.template.decrAsync(key, 1) : () -> this.template.decr(key, 1));
                touch.add(async ? () -> this.template.touchAsync(key, ttl) : () -> this.template.touch(key, ttl));
                List<String> keys = Arrays.asList(valid, key);
                getAll.add(async ? () -> this.template.getAllAsync(keys) : () -> this.template.getAll(keys));
                set.add(async ? () -> this.template.setAsync(key, value, ttl) : () -> this.template.set(key, value, ttl));
                add.add(async ? () -> this.template.addAsync(key, value, ttl) : () -> this.template.add(key, value, ttl));
                replace.add(async ? () -> this.template.replaceAsync(key, value, ttl) : () -> this.template.replace(key, value, ttl));
                cas.add(async ? () -> this.template.casAsync(key, token, value, ttl) : () -> this.template.cas(key, token, value, ttl));
            }
            for (byte[] bad : badValues) {
                set.add(async ? () -> this.template.setAsync(valid, bad, ttl) : () -> this.template.set(valid, bad, ttl));
                add.add(async ? () -> this.template.addAsync(valid, bad, ttl) : () -> this.template.add(valid, bad, ttl));
                replace.add(async ? () -> this.template.replaceAsync(valid, bad, ttl) : () -> this.template.replace(valid, bad, ttl));
                cas.add(async ? () -> this.template.casAsync(valid, token, bad, ttl) : () -> this.template.cas(valid, token, bad, ttl));
            }
            for (Duration bad : badTtls) {
                set.add(async ? () -> this.template.setAsync(valid, value, bad) : () -> this.template.set(valid, value, bad));
                add.add(async ? () -> this.template.addAsync(valid, value, bad) : () -> this.template.add(valid, value, bad));
                replace.add(async ? () -> this.template.replaceAsync(valid, value, bad) : () -> this.template.replace(valid, value, bad));
                cas.add(async ? () -> this.template.casAsync(valid, token, value, bad) : () -> this.template.cas(valid, token, value, bad));
                touch.add(async ? () -> this.template.touchAsync(valid, bad) : () -> this.template.touch(valid, bad));
            }
            for (CasToken bad : Arrays.asList(null, otherKeysToken, otherBackendsToken)) {
                cas.add(async ? () -> this.template.casAsync(valid, bad, value, ttl) : () -> this.template.cas(valid, bad, value, ttl));
            }
            incr.add(async ? () -> this.template.incrAsync(valid, -1) : () -> this.template.incr(valid, -1));
            decr.add(async ? () -> this.template.decrAsync(valid, -1) : () -> this.template.decr(valid, -1));
            List<String> duplicates = List.of(valid, valid);
            getAll.add(async ? () -> this.template.getAllAsync(null) : () -> this.template.getAll(null));
            getAll.add(async ? () -> this.template.getAllAsync(duplicates) : () -> this.template.getAll(duplicates));
            refusals.put("get" + form, get);
            refusals.put("gets" + form, gets);
            refusals.put("getAll" + form, getAll);
            refusals.put("set" + form, set);
            refusals.put("add" + form, add);
            refusals.put("replace" + form, replace);
            refusals.put("cas" + form, cas);
            refusals.put("delete" + form, delete);
            refusals.put("touch" + form, touch);
            refusals.put("incr" + form, incr);
            refusals.put("decr" + form, decr);
        }
        assertThat(refusals).as("every operation of CacheOperations, in both forms").hasSize(22);

        refusals.forEach((operation, calls) -> assertRefusedWithoutIo(operation, calls));

        assertThat(this.template.get(valid)).as("the connection still serves, the value unchanged").isEqualTo(sentinel);
        assertThat(this.template.getAsync(valid).join()).isEqualTo(sentinel);
    }

    private void assertRefusedWithoutIo(String operation, List<ThrowingCallable> calls) {
        List<String> attempts = new ArrayList<>();
        int disturbed = 0;
        while (attempts.size() < WINDOW_ATTEMPTS) {
            ServerCounters first = serverCounters();
            ServerCounters second = serverCounters();
            for (int i = 0; i < calls.size(); i++) {
                Throwable thrown = catchThrowable(calls.get(i));
                assertThat(thrown).as("%s, invalid input #%d: refused", operation, i).isInstanceOf(InvalidCacheInputException.class);
                assertThat(thrown.getMessage()).as("%s, invalid input #%d: with a reason", operation, i).isNotBlank();
            }
            ServerCounters third = serverCounters();
            if (third.foreignCommands() != first.foreignCommands()) {
                disturbed = disturbedAgain(disturbed, operation);
                continue;
            }
            long statsRead = second.bytesRead() - first.bytesRead();
            long sent = third.bytesRead() - second.bytesRead() - statsRead;
            if (sent == 0) {
                return;
            }
            attempts.add("control pair " + statsRead + " bytes, window with the calls " + (third.bytesRead() - second.bytesRead())
                    + " bytes");
        }
        throw new AssertionError(operation + ": " + calls.size() + " refused calls moved the server's bytes read in every one of "
                + WINDOW_ATTEMPTS + " windows: " + attempts);
    }

    /**
     * Counts a window that foreign commands disturbed (its bytes are not only the template's, in
     * the calls' part or in the control pair, where they would hide as many of the calls' bytes),
     * and fails once {@value #DISTURBED_WINDOWS} were.
     */
    private static int disturbedAgain(int disturbed, String what) {
        if (disturbed + 1 >= DISTURBED_WINDOWS) {
            throw new AssertionError("the server ran foreign commands in " + DISTURBED_WINDOWS + " windows for " + what
                    + ": a refused call sends them, or something else talks to the server all the time");
        }
        return disturbed + 1;
    }

    /**
     * The flush barrier: each barrier key read twice in a row, each read awaited. The strategy is
     * MULTI(2) round robin, so two reads in a row take both connections; a connection answers in
     * order, so anything a refused call put on a connection before the barrier has reached the
     * server, and been counted there, once the barrier's reads have their answers.
     */
    private void flushBarrier(List<String> barrier) {
        for (String key : barrier) {
            this.template.get(key);
            this.template.get(key);
        }
    }

    /**
     * What the barrier alone adds to the server's bytes read, less what a stats read adds: the
     * figure {@value #BARRIER_AGREEMENT} undisturbed control windows agree on. Not the fewest: a
     * stray byte in a control pair makes a window read too few, and every window judged against
     * that figure would then seem to have sent those bytes.
     */
    private long barrierBytes(List<String> barrier) {
        Map<Long, Integer> seen = new LinkedHashMap<>();
        int disturbed = 0;
        int judged = 0;
        while (judged < 4 * BARRIER_AGREEMENT) {
            ServerCounters first = serverCounters();
            ServerCounters second = serverCounters();
            flushBarrier(barrier);
            ServerCounters third = serverCounters();
            if (third.foreignCommands() != first.foreignCommands()) {
                disturbed = disturbedAgain(disturbed, "the barrier alone");
                continue;
            }
            judged++;
            long bytes = third.bytesRead() - second.bytesRead() - (second.bytesRead() - first.bytesRead());
            if (seen.merge(bytes, 1, Integer::sum) == BARRIER_AGREEMENT) {
                assertThat(bytes).as("the barrier's reads reach the server").isPositive();
                return bytes;
            }
        }
        throw new AssertionError("no " + BARRIER_AGREEMENT + " control windows agree on the barrier's bytes: " + seen);
    }

    /** How many undisturbed control windows must agree on what the barrier alone adds. */
    private static final int BARRIER_AGREEMENT = 3;

    /**
     * A refused call, then the flush barrier: the server's bytes read must move by the barrier's
     * bytes and nothing more. Judged on the server's own count, after the barrier has come back,
     * so that a call that sent a command (counted by the template only once it completed, or
     * not at all) is caught. A window that moved is tried again like the windows above.
     */
    private void assertRefusedWithoutABytePastTheBarrier(Runnable refusedCall, List<String> barrier, long barrierBytes,
            String what) {
        List<String> attempts = new ArrayList<>();
        int disturbed = 0;
        while (attempts.size() < WINDOW_ATTEMPTS) {
            ServerCounters first = serverCounters();
            ServerCounters second = serverCounters();
            refusedCall.run();
            flushBarrier(barrier);
            ServerCounters third = serverCounters();
            if (third.foreignCommands() != first.foreignCommands()) {
                disturbed = disturbedAgain(disturbed, what);
                continue;
            }
            long sent = third.bytesRead() - second.bytesRead() - (second.bytesRead() - first.bytesRead()) - barrierBytes;
            if (sent == 0) {
                return;
            }
            attempts.add(sent + " bytes besides the barrier's " + barrierBytes);
        }
        throw new AssertionError("nothing sent for " + what + ", but the server read, in every one of " + WINDOW_ATTEMPTS
                + " windows: " + attempts);
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
            default -> this.template.casAsync(key, CasToken.ofVersion(this.template.stats().backendKind(), key == null ? "" : key, 1),
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
