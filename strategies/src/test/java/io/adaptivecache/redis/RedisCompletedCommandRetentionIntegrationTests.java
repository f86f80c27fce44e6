package io.adaptivecache.redis;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A value the caller has received and dropped must not stay reachable from the client: Lettuce
 * puts every command on its timeout timer, and a completed command, value included, stays on the
 * wheel until the timer's next tick. On Lettuce's default 100 ms tick that kept 100 ms of traffic
 * alive, which at large values overflowed the young generation (the benchmark's 100 KiB cells
 * promoted up to two thirds of every young collection). The template's timer ticks every 10 ms.
 *
 * <p>The test reads without pause for several ticks of a 100 ms timer and, every few milliseconds,
 * collects and looks for a value received more than {@link #RETAINED_AT_MOST} ago that is still
 * reachable. On a 100 ms tick the values received just after a tick are still held just before the
 * next, so a check in the last {@code 100 - RETAINED_AT_MOST} ms before any tick finds one; the
 * run lasts until its checks have covered four such ticks with no gap that long (asserted), so a
 * 100 ms tick is seen holding values in checks more than {@link #SPREAD} apart in every run. A
 * timer's thread kept off the cores for a moment (a loaded two-core machine) holds values late in
 * one stretch only, which is not taken for a slow tick.
 */
class RedisCompletedCommandRetentionIntegrationTests {

    /**
     * How long a received value may stay reachable: one 10 ms tick of the template's timer, plus
     * 25 ms for the timer's thread to get a core on a loaded two-core machine (a tick is run late,
     * never skipped). Lettuce's default tick of 100 ms holds values up to 100 ms.
     */
    private static final long RETAINED_AT_MOST = TimeUnit.MILLISECONDS.toNanos(35);

    /**
     * The longest gap between two checks for a 100 ms tick to be caught: the stretch before each
     * such tick in which a value it holds is older than {@link #RETAINED_AT_MOST}.
     */
    private static final long GAP_BELOW = TimeUnit.MILLISECONDS.toNanos(100) - RETAINED_AT_MOST;

    /**
     * How long the checks must run with no gap of {@link #GAP_BELOW} or more: four ticks of a 100 ms
     * timer, so that such a run holds three whole stretches, the first and the last more than
     * {@link #SPREAD} apart, and so checks in each, for certain.
     */
    private static final long COVERED = TimeUnit.MILLISECONDS.toNanos(400);

    /**
     * How far apart the checks that find values held too long must be for the holding to be the
     * timer's own: a 100 ms tick holds them before each of its ticks, a stall of the timer's thread
     * in one stretch.
     */
    private static final long SPREAD = TimeUnit.MILLISECONDS.toNanos(100);

    /** Bounds the test: a machine so loaded that no 200 ms of checks without a long gap come in 10 s fails. */
    private static final long RUN_LIMIT = TimeUnit.SECONDS.toNanos(10);

    /** Between checks, besides the reads and the collection. */
    private static final long CHECK_EVERY = TimeUnit.MILLISECONDS.toNanos(5);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void valuesReadAreReleasedWithinAFewTimerTicksOfTheirCompletion() throws Exception {
        byte[] large = new byte[256 * 1024];
        new SplittableRandom(7).nextBytes(large);
        try (ManagedCacheTemplate template = RedisCacheTemplates.builder().uri(redis.uri()).strategy(StrategySpec.single())
                .start()) {
            template.set("retention:large", large, Duration.ZERO);
            // Warm-up: the timer's thread starts with the first command, and the first reads run interpreted; neither
            // is what is measured. Done when a first batch of values has been released.
            List<Received> first = readAndDrop(template, 4);
            await("the warm-up reads to be released").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        System.gc();
                        return first.stream().allMatch(value -> value.value().get() == null);
                    });
            Deque<Received> held = new ArrayDeque<>();
            List<String> retained = new ArrayList<>();
            long firstRetained = -1;
            long lastRetained = -1;
            int checks = 0;
            long covered = 0; // the span of the latest checks with no gap of GAP_BELOW or more
            long started = System.nanoTime();
            long lastCheck = started;
            while (covered < COVERED && System.nanoTime() - started < RUN_LIMIT && lastRetained - firstRetained < SPREAD) {
                held.addAll(readAndDrop(template, 4));
                long now = System.nanoTime();
                if (now - lastCheck >= CHECK_EVERY) {
                    long gap = now - lastCheck;
                    covered = checks > 0 && gap < GAP_BELOW ? covered + gap : 0;
                    lastCheck = now;
                    checks++;
                    // Whatever the collector finds unreachable now was unreachable at 'now'.
                    System.gc();
                    for (Received value : held) {
                        if (value.value().get() != null && now - value.receivedAt() > RETAINED_AT_MOST) {
                            retained.add("received " + TimeUnit.NANOSECONDS.toMillis(now - value.receivedAt()) + " ms earlier, at check "
                                    + checks + ", " + TimeUnit.NANOSECONDS.toMillis(now - started) + " ms into the run");
                            firstRetained = firstRetained < 0 ? now : firstRetained;
                            lastRetained = now;
                        }
                    }
                    held.removeIf(value -> value.value().get() == null);
                }
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(lastRetained - firstRetained))
                    .as("ms between the first and last checks that found values reachable more than %d ms after they were"
                            + " received (%d checks): %s", TimeUnit.NANOSECONDS.toMillis(RETAINED_AT_MOST), checks, retained)
                    .isLessThan(TimeUnit.NANOSECONDS.toMillis(SPREAD));
            // The condition for a 100 ms tick to be caught for certain (a slow collection only makes the run longer).
            assertThat(TimeUnit.NANOSECONDS.toMillis(covered)).as("ms of checks with no gap of %d ms or more (%d checks)",
                    TimeUnit.NANOSECONDS.toMillis(GAP_BELOW), checks).isGreaterThanOrEqualTo(TimeUnit.NANOSECONDS.toMillis(COVERED));
        }
    }

    /** A value read, held weakly, and when it was received. */
    private record Received(WeakReference<byte[]> value, long receivedAt) {
    }

    private static List<Received> readAndDrop(ManagedCacheTemplate template, int reads) {
        List<CompletableFuture<byte[]>> futures = new ArrayList<>();
        for (int i = 0; i < reads; i++) {
            futures.add(template.getAsync("retention:large"));
        }
        List<Received> values = new ArrayList<>();
        for (CompletableFuture<byte[]> future : futures) {
            byte[] value = future.join();
            long receivedAt = System.nanoTime();
            assertThat(value).hasSize(256 * 1024);
            values.add(new Received(new WeakReference<>(value), receivedAt));
        }
        return values;
    }
}
