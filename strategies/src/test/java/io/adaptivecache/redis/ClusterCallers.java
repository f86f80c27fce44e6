package io.adaptivecache.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

import io.adaptivecache.CacheTemplate;

/**
 * The load of the cluster fault tests: callers that each pick a random key from a list spread
 * over every master, set it one call in five and get it otherwise, until stopped, past a deadline
 * or after a number of calls. A call that returns counts in {@code calls}; one that throws goes to
 * the test's handler with its key, so each test decides what a failure on which node means.
 */
final class ClusterCallers {

    private ClusterCallers() {
    }

    /**
     * Submits the callers.
     * @param executor where they run
     * @param threads how many
     * @param callsPerThread the most calls each makes
     * @param deadlineNanos the {@link System#nanoTime()} after which they stop
     * @param stop set to stop them
     * @param template the template under test
     * @param keys the keys, one picked at random per call
     * @param value what a set writes
     * @param calls counts the calls that returned
     * @param onFailure given the key and the exception of each call that threw
     * @return the callers, to wait for
     */
    static List<Future<?>> submit(ExecutorService executor, int threads, int callsPerThread, long deadlineNanos, AtomicBoolean stop,
            CacheTemplate template, List<String> keys, byte[] value, LongAdder calls, BiConsumer<String, RuntimeException> onFailure) {
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(executor.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < callsPerThread && !stop.get() && System.nanoTime() < deadlineNanos; i++) {
                    String key = keys.get(random.nextInt(keys.size()));
                    try {
                        if (random.nextInt(5) == 0) {
                            template.set(key, value, Duration.ZERO);
                        }
                        else {
                            template.get(key);
                        }
                        calls.increment();
                    }
                    catch (RuntimeException ex) {
                        onFailure.accept(key, ex);
                    }
                }
            }));
        }
        return workers;
    }
}
