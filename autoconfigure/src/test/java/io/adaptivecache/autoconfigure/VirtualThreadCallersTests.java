package io.adaptivecache.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.metrics.WindowHistory;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Thousands of virtual-thread callers through every strategy, with
 * {@code spring.threads.virtual.enabled=true}, on real servers: each strategy serves them all, no
 * carrier thread is pinned while they run, and the switcher's windows count them as calls in
 * flight (hundreds to thousands), not as the few carrier threads they run on.
 *
 * <p>Pinning is counted with JFR's {@code jdk.VirtualThreadPinned} event at a threshold of 0 ms,
 * recorded around the load and read back from the dumped recording. The assertion is that none
 * at all was recorded, whoever's frames it came from, since a carrier pinned by a driver hurts
 * the application as much as one pinned by this library. What that catches depends on the JDK:
 * on JDK 21 to 23 a virtual thread that blocks inside {@code synchronized} (ours or a driver's)
 * pins its carrier; from JDK 24 (JEP 491) {@code synchronized} and {@code Object.wait} no longer
 * pin, so on JDK 25, which CI runs, the test catches blocking under a native frame or in a class
 * initializer. {@link #theCountingShouldSeeADeliberatePin()} shows that the counting sees such a
 * pin, so that a zero here is not a recording that sees nothing. commons-pool2 waits on
 * {@code ReentrantLock} conditions and Jedis reads its socket through the JDK's virtual-thread
 * aware socket I/O, so neither is expected to pin. Classes are loaded and initialized by a
 * platform thread's calls and then by a few virtual threads' calls before the recording starts: on
 * JDK 25 the first virtual thread to block on a socket initializes the JDK's poller for virtual
 * threads, and virtual threads that wait for that initialization are pinned, once per JVM. A
 * one-time class initialization is not what this test is about.
 *
 * <p>Runs on JDK 21 and later only (virtual threads and the event); skipped on JDK 17 with that
 * reason. Virtual threads are made through reflection because the module compiles for Java 17.
 * Bounded: {@value #CALLERS} callers of at most {@value #CALLS_PER_CALLER} calls each, within
 * {@link #LOAD_LIMIT}.
 */
class VirtualThreadCallersTests {

    private static final int CALLERS = 2_000;

    private static final int CALLS_PER_CALLER = 30;

    private static final Duration LOAD_LIMIT = Duration.ofSeconds(20);

    private static final String PINNED = "jdk.VirtualThreadPinned";

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    // Per test rather than per class, so that JDK 17 reports each test as skipped with this reason, not nothing run.
    @BeforeEach
    void needsVirtualThreads() {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads and JFR's jdk.VirtualThreadPinned event need JDK 21 or"
                + " later; this JVM is " + Runtime.version() + " (CI runs this class on its Java 25 leg)");
    }

    static Stream<Arguments> strategies() {
        // Pool waits are long enough that 2,000 callers queue for 8 connections rather than fail: waiting is what must
        // not pin.
        String pool = "strategy.pool.max-wait=30s";
        return Stream.of(
                Arguments.of("Redis SINGLE (Lettuce)", "redis", new String[] { "adaptive-cache.redis.strategy.type=single" }),
                Arguments.of("Redis MULTI (Lettuce)", "redis",
                        new String[] { "adaptive-cache.redis.strategy.type=multi", "adaptive-cache.redis.strategy.multi.connections=4" }),
                Arguments.of("Redis POOLED (Lettuce)", "redis", new String[] { "adaptive-cache.redis.strategy.type=pooled",
                        "adaptive-cache.redis.pooled-driver=lettuce", "adaptive-cache.redis." + pool }),
                Arguments.of("Redis POOLED (Jedis, blocking)", "redis", new String[] { "adaptive-cache.redis.strategy.type=pooled",
                        "adaptive-cache.redis.pooled-driver=jedis", "adaptive-cache.redis." + pool }),
                Arguments.of("memcached MULTI (spymemcached)", "memcached", new String[] {
                        "adaptive-cache.memcached.strategy.type=multi", "adaptive-cache.memcached.strategy.multi.connections=4" }),
                Arguments.of("memcached POOLED (spymemcached)", "memcached",
                        new String[] { "adaptive-cache.memcached.strategy.type=pooled", "adaptive-cache.memcached." + pool }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void everyStrategyShouldServeThousandsOfVirtualThreadCallersWithoutPinningAndCountThemAsInFlight(String label, String template,
            String[] properties) {
        // 2,000 callers on a few connections of a 2-core machine queue for hundreds of milliseconds: the breaker's
        // slow-call rule and the command timeout would rightly act on that overload (and fail calls this test counts
        // as failures), so they are lifted; what is tested is how the callers wait, not how overload is refused. Windows
        // of 200 ms, so that a load of a second or two fills several.
        String prefix = "adaptive-cache." + template;
        String timeout = template.equals("redis") ? ".timeout=30s" : ".operation-timeout=30s";
        ContextRunners.onBothServers(redis, memcached)
                .withPropertyValues("spring.threads.virtual.enabled=true", prefix + ".adaptive.window=200ms", prefix + timeout,
                        prefix + ".resilience.circuit-breaker.slow-call-duration-threshold=60s")
                .withPropertyValues(properties)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ManagedCacheTemplate cache = context.getBean(template + "CacheTemplate", ManagedCacheTemplate.class);
                    StrategySwitcher switcher = context.getBean(AdaptiveCacheSwitchers.class).get(template);
                    assertThat(switcher).as("the template's switcher, which samples its windows").isNotNull();
                    CacheOperations<String> strings = cache.withCodec(ValueCodec.utf8());
                    // Loads and initializes the classes of the call path, outside the recording: on a platform thread, then
                    // on a few virtual threads, whose first blocking socket read makes the JDK initialize its poller for
                    // virtual threads (others that wait for that are pinned, once per JVM; measured on JDK 25).
                    for (int i = 0; i < 20; i++) {
                        strings.set("vt:" + i, "warm", Duration.ofMinutes(1));
                        strings.get("vt:" + i);
                    }
                    Load warmUp = run(50, (caller, thisLoad) -> {
                        for (int call = 0; call < 5 && thisLoad.mayCall(); call++) {
                            strings.get("vt:" + caller % 20);
                        }
                    });
                    assertThat(warmUp.failure()).as(label + ": a warm-up call").isNull();

                    long loadStartMillis = System.currentTimeMillis();
                    Load load;
                    List<String> pins;
                    try (Recording recording = pinnedEvents()) {
                        recording.start();
                        load = run(CALLERS, (caller, thisLoad) -> {
                            String key = "vt:" + (caller % 64);
                            for (int call = 0; call < CALLS_PER_CALLER && thisLoad.mayCall(); call++) {
                                if (call % 4 == 0) {
                                    strings.set(key, "value-" + caller, Duration.ofMinutes(1));
                                }
                                else {
                                    strings.get(key);
                                }
                            }
                        });
                        recording.stop();
                        pins = pinnedStacks(recording);
                    }
                    long loadEndMillis = System.currentTimeMillis();

                    assertThat(load.failure()).as(label + ": a call that failed under virtual-thread callers").isNull();
                    assertThat(load.calls()).as(label + ": calls made").isGreaterThanOrEqualTo(CALLERS);
                    assertThat(pins).as(label + ": carriers pinned while " + CALLERS + " virtual threads called (stacks)").isEmpty();

                    // The switcher sees offered concurrency as throughput x mean latency (Little's law): callers parked on a
                    // reply or on the pool are in flight, whatever number of carriers runs them. Windows sampled after the
                    // load count too: the closing one may end a moment after the last call returns.
                    awaitWindowAfter(switcher, loadEndMillis);
                    double mostInFlight = switcher.windowHistory().stream()
                            .filter(entry -> entry.endEpochMillis() > loadStartMillis)
                            .mapToDouble(entry -> entry.sample().concurrency()).max().orElse(0);
                    // A call is in flight from its start until its reply completes it (on the driver's I/O thread); a caller
                    // answered but not yet run again waits for a carrier, not for the cache, and is rightly not counted.
                    // So when the cache answers faster than two carriers can run 2,000 callers (spymemcached does since its
                    // I/O thread is woken once a turn), fewer than a quarter of the callers are in flight: measured 300 to
                    // 560 there, 1,500 to 3,000 on the others. What the test tells apart is counting parked callers from
                    // counting busy threads: platform threads as many as the carriers could keep at most that many calls in
                    // flight, so the bound is 25 times the carriers (at most a quarter of the callers).
                    double bound = Math.min(CALLERS / 4.0, 25.0 * carriers());
                    assertThat(mostInFlight).as(label + ": most calls in flight in a window, with " + CALLERS
                            + " virtual-thread callers on " + carriers() + " carriers").isGreaterThan(bound);
                });
    }

    @Test
    void theCountingShouldSeeADeliberatePin() throws Exception {
        // A virtual thread that blocks in a class initializer pins its carrier on every JDK that has them (JEP 491
        // left that case pinned), so this control holds on JDK 25 as on 21; Thread.sleep in synchronized would pin
        // only before JDK 24.
        List<String> pins;
        try (Recording recording = pinnedEvents()) {
            recording.start();
            Load load = run(1, (caller, thisLoad) -> SleepsInItsInitializer.touch());
            recording.stop();
            assertThat(load.failure()).isNull();
            pins = pinnedStacks(recording);
        }
        assertThat(pins).as("the pin the control made").anySatisfy(stack -> assertThat(stack)
                .contains(SleepsInItsInitializer.class.getName() + ".<clinit>"));
    }

    private static Recording pinnedEvents() {
        Recording recording = new Recording();
        recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
        return recording;
    }

    /** Each pinned event's stack, one frame per line, read back from the stopped recording. */
    private static List<String> pinnedStacks(Recording recording) throws IOException {
        Path file = Files.createTempFile("virtual-thread-pins", ".jfr");
        try {
            recording.dump(file);
            List<String> stacks = new ArrayList<>();
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                if (event.getEventType().getName().equals(PINNED)) {
                    List<RecordedFrame> frames = event.getStackTrace() == null ? List.of() : event.getStackTrace().getFrames();
                    // JDK 24 and later tell the reason (pinnedReason) and what blocked (blockingOperation).
                    String fields = event.getFields().stream()
                            .filter(field -> !List.of("startTime", "duration", "eventThread", "stackTrace").contains(field.getName()))
                            .map(field -> field.getName() + "=" + event.getValue(field.getName()))
                            .collect(Collectors.joining(", "));
                    stacks.add(event.getDuration().toNanos() / 1000 + " us pinned (" + fields + "):\n" + frames.stream()
                            .map(frame -> frame.getMethod().getType().getName() + "." + frame.getMethod().getName())
                            .collect(Collectors.joining("\n  ", "  ", "")));
                }
            }
            return stacks;
        }
        finally {
            Files.deleteIfExists(file);
        }
    }

    /** Starts {@code callers} virtual threads together, each running {@code body} once, and waits for all of them. */
    private static Load run(int callers, Caller body) throws Exception {
        Load load = new Load(System.nanoTime() + LOAD_LIMIT.toNanos());
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>(callers);
        // Not try-with-resources: ExecutorService is AutoCloseable only from Java 19, and this compiles for 17.
        ExecutorService virtualThreads = virtualThreadPerTask();
        try {
            for (int i = 0; i < callers; i++) {
                int caller = i;
                futures.add(virtualThreads.submit(() -> {
                    try {
                        start.await();
                        body.call(caller, load);
                    }
                    catch (Throwable ex) {
                        load.failure.compareAndSet(null, ex);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                // Bounded: past the deadline callers stop calling; a call itself is bounded by the template's timeouts.
                future.get(LOAD_LIMIT.toSeconds() + 30, TimeUnit.SECONDS);
            }
        }
        finally {
            virtualThreads.shutdownNow();
        }
        return load;
    }

    private static ExecutorService virtualThreadPerTask() throws ReflectiveOperationException {
        // Java 21 API, reached through reflection: the module compiles for Java 17.
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    private static int carriers() {
        return Integer.getInteger("jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
    }

    private static void awaitWindowAfter(StrategySwitcher switcher, long epochMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            WindowHistory.Entry latest = switcher.latestWindow();
            if (latest != null && latest.endEpochMillis() >= epochMillis) {
                return;
            }
            Thread.sleep(20);
        }
    }

    /** One caller's work. */
    @FunctionalInterface
    private interface Caller {

        void call(int caller, Load load) throws Exception;
    }

    /** What a load did: calls made, the first failure, and its deadline. */
    private static final class Load {

        private final long deadlineNanos;

        private final AtomicLong calls = new AtomicLong();

        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Load(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
        }

        /** Whether the deadline still allows a call; counts the call it allows. */
        boolean mayCall() {
            if (System.nanoTime() - this.deadlineNanos > 0) {
                return false;
            }
            this.calls.incrementAndGet();
            return true;
        }

        long calls() {
            return this.calls.get();
        }

        Throwable failure() {
            return this.failure.get();
        }
    }

    /** Blocks in its static initializer: the first virtual thread to touch it pins its carrier meanwhile. */
    private static final class SleepsInItsInitializer {

        static {
            try {
                Thread.sleep(30);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
        }
    }
}
