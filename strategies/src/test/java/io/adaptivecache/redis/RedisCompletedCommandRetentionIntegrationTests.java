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
 * checks come far more often than that (their largest gap is asserted), so a 100 ms tick fails
 * every run rather than by the odds of where a single check falls.
 */
class RedisCompletedCommandRetentionIntegrationTests {

    /**
     * How long a received value may stay reachable: one 10 ms tick of the template's timer, plus
     * 25 ms for the timer's thread to get a core on a loaded two-core machine (a tick is run late,
     * never skipped). Lettuce's default tick of 100 ms holds values up to 100 ms.
     */
    private static final long RETAINED_AT_MOST = TimeUnit.MILLISECONDS.toNanos(35);

    /** The longest run of reads: five ticks of Lettuce's default timer. */
    private static final long RUN = TimeUnit.MILLISECONDS.toNanos(500);

    /** Between checks, besides the reads and the collection: the 65 ms before each 100 ms tick hold at least one. */
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
            long largestGap = 0;
            int checks = 0;
            long started = System.nanoTime();
            long lastCheck = started;
            while (System.nanoTime() - started < RUN && retained.isEmpty()) {
                held.addAll(readAndDrop(template, 4));
                long now = System.nanoTime();
                if (now - lastCheck >= CHECK_EVERY) {
                    largestGap = Math.max(largestGap, now - lastCheck);
                    lastCheck = now;
                    checks++;
                    // Whatever the collector finds unreachable now was unreachable at 'now'.
                    System.gc();
                    for (Received value : held) {
                        if (value.value().get() != null && now - value.receivedAt() > RETAINED_AT_MOST) {
                            retained.add("received " + TimeUnit.NANOSECONDS.toMillis(now - value.receivedAt()) + " ms earlier, at check "
                                    + checks + ", " + TimeUnit.NANOSECONDS.toMillis(now - started) + " ms into the run");
                        }
                    }
                    held.removeIf(value -> value.value().get() == null);
                }
            }
            assertThat(retained).as("values still reachable more than %d ms after they were received (%d checks)",
                    TimeUnit.NANOSECONDS.toMillis(RETAINED_AT_MOST), checks).isEmpty();
            // The condition for the 100 ms tick to be caught for certain: no gap between checks as long as the
            // stretch before a tick in which a held value is older than the bound.
            assertThat(TimeUnit.NANOSECONDS.toMillis(largestGap)).as("largest gap between checks, ms (%d checks)", checks)
                    .isLessThan(100 - TimeUnit.NANOSECONDS.toMillis(RETAINED_AT_MOST));
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
