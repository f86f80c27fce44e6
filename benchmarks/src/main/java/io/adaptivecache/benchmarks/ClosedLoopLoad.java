package io.adaptivecache.benchmarks;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.CacheTemplate;

/**
 * The comparisons' workload: closed-loop callers issuing 80% get / 20% set of 100-byte values
 * over 10,000 keys, a warm-up, then a fixed measured window.
 */
final class ClosedLoopLoad {

    static final int KEYS = 10_000;

    private ClosedLoopLoad() {
    }

    /**
     * Fills the keys, runs the callers and returns their throughput over the measured window.
     * @param template the template to load
     * @param threads how many callers
     * @param warmUp time before measuring
     * @param measured the measured window
     * @return operations per second
     * @throws InterruptedException if interrupted
     */
    static double opsPerSecond(CacheTemplate template, int threads, Duration warmUp, Duration measured)
            throws InterruptedException {
        byte[] value = new byte[100];
        for (int i = 0; i < KEYS; i++) {
            template.set("bench:" + i, value, Duration.ZERO);
        }
        LongAdder operations = new LongAdder();
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        for (int t = 0; t < threads; t++) {
            executor.execute(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!stop.get()) {
                    String key = "bench:" + random.nextInt(KEYS);
                    if (random.nextInt(10) < 8) {
                        template.get(key);
                    }
                    else {
                        template.set(key, value, Duration.ZERO);
                    }
                    if (measuring.get()) {
                        operations.increment();
                    }
                }
            });
        }
        // Fixed-length windows are the measurement itself (closed-loop throughput over a set time), not a wait for a condition.
        Thread.sleep(warmUp.toMillis());
        measuring.set(true);
        long started = System.nanoTime();
        Thread.sleep(measured.toMillis());
        long counted = operations.sum();
        double seconds = (System.nanoTime() - started) / 1e9;
        stop.set(true);
        executor.shutdown();
        executor.awaitTermination(30, TimeUnit.SECONDS);
        return counted / seconds;
    }
}
