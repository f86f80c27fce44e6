package io.adaptivecache.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheTemplate;

/**
 * Synchronous callers issuing a get/set mix in a loop, bounded in calls per thread and in time,
 * recording how each call ended and the longest any call took since the last {@link #resetLongest()}
 * (a call still running counts with the time it has taken so far, so a caller stuck for good is
 * seen). Anything other than a {@link CacheException} is kept as unexpected. Stopping fails if a
 * caller does not end in time.
 */
public final class CallerLoad implements AutoCloseable {

    private static final int MAX_CALLS_PER_THREAD = 200_000;

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final LongAdder successes = new LongAdder();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final LongAccumulator longestNanos = new LongAccumulator(Math::max, 0);
    private final List<Throwable> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicLong deadline = new AtomicLong();
    /** Per caller, when its current call started, or 0 between calls. */
    private java.util.concurrent.atomic.AtomicLongArray callStarted;

    private CallerLoad() {
    }

    /**
     * Starts callers.
     * @param template the template under test
     * @param threads how many callers
     * @param keyPrefix prefix of the keys they use
     * @param atMost longest the callers run
     * @return the running load
     */
    public static CallerLoad start(CacheTemplate template, int threads, String keyPrefix, Duration atMost) {
        CallerLoad load = new CallerLoad();
        load.deadline.set(System.nanoTime() + atMost.toNanos());
        load.callStarted = new java.util.concurrent.atomic.AtomicLongArray(threads);
        byte[] value = new byte[100];
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < MAX_CALLS_PER_THREAD && !load.stop.get() && System.nanoTime() < load.deadline.get(); i++) {
                    String key = keyPrefix + ((id * 31 + i) % 500);
                    long started = System.nanoTime();
                    // 0 means "between calls", so a clock reading of exactly 0 is nudged.
                    load.callStarted.set(id, started == 0 ? 1 : started);
                    try {
                        if (i % 5 == 0) {
                            template.set(key, value, Duration.ofMinutes(5));
                        }
                        else {
                            template.get(key);
                        }
                        load.successes.increment();
                    }
                    catch (CacheException ex) {
                        load.failures.computeIfAbsent(ex.getClass().getSimpleName(), name -> new LongAdder()).increment();
                    }
                    catch (RuntimeException | Error ex) {
                        load.unexpected.add(ex);
                    }
                    load.callStarted.set(id, 0);
                    load.longestNanos.accumulate(System.nanoTime() - started);
                }
            }, "caller-load-" + t);
            thread.setDaemon(true);
            load.threads.add(thread);
            thread.start();
        }
        return load;
    }

    /** Calls that succeeded so far. */
    public long successes() {
        return this.successes.sum();
    }

    /** Calls that failed with a cache exception so far. */
    public long failures() {
        return this.failures.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Failed calls by exception class. */
    public Map<String, Long> failuresByType() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        this.failures.forEach((type, count) -> counts.put(type, count.sum()));
        return counts;
    }

    /** The longest call since the last reset, counting each call still running with its time so far. */
    public Duration longestCall() {
        long now = System.nanoTime();
        long longest = this.longestNanos.get();
        for (int i = 0; i < this.callStarted.length(); i++) {
            long started = this.callStarted.get(i);
            if (started != 0) {
                longest = Math.max(longest, now - started);
            }
        }
        return Duration.ofNanos(longest);
    }

    /** Starts measuring the longest call afresh. */
    public void resetLongest() {
        this.longestNanos.reset();
    }

    /** Exceptions that were not cache exceptions. */
    public List<Throwable> unexpected() {
        return this.unexpected;
    }

    /**
     * Stops the callers: each finishes the call it is in and ends.
     * @param atMost how long, from now, the slowest caller may take to end (its call's bound)
     * @throws AssertionError naming every caller still running then, with where it is stuck
     */
    public void stop(Duration atMost) {
        this.stop.set(true);
        long deadline = System.nanoTime() + atMost.toNanos();
        for (Thread thread : this.threads) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted while stopping the callers", ex);
            }
        }
        StringBuilder stuck = new StringBuilder();
        for (Thread thread : this.threads) {
            if (thread.isAlive()) {
                stuck.append("\n").append(thread.getName()).append(':');
                for (StackTraceElement frame : thread.getStackTrace()) {
                    stuck.append("\n\tat ").append(frame);
                }
            }
        }
        if (!stuck.isEmpty()) {
            throw new AssertionError("Callers still running " + atMost.toMillis() + " ms after they were told to stop:" + stuck);
        }
    }

    /**
     * Stops the callers and waits for them, as {@link #stop(Duration)} with a generous bound, for
     * cleanup; still fails if a caller is stuck.
     */
    @Override
    public void close() {
        stop(Duration.ofSeconds(30));
    }
}
