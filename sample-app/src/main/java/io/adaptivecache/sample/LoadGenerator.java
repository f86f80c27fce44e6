package io.adaptivecache.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.CacheTemplate;
import org.HdrHistogram.ConcurrentHistogram;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * A bounded closed-loop load: {@code threads} callers doing 80% get / 20% set over 10,000 keys
 * for {@code duration}, so a person can watch the strategy's numbers move. One run at a time.
 */
@Component
public class LoadGenerator {

    /** Most caller threads one run may use. */
    public static final int MAX_THREADS = 256;

    /** Longest run. */
    public static final Duration MAX_DURATION = Duration.ofSeconds(60);

    /** Largest value a run may write. */
    public static final int MAX_VALUE_SIZE = 512 * 1024;

    private static final int KEYS = 10_000;

    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private volatile @Nullable Report lastReport;

    /**
     * Runs the load and waits for it to finish.
     * @param template where to send it
     * @param threads caller threads, 1 to {@value #MAX_THREADS}
     * @param duration how long, up to {@link #MAX_DURATION}
     * @param valueSize bytes per value written, 1 to {@value #MAX_VALUE_SIZE}
     * @return what it measured
     * @throws IllegalArgumentException if a bound is exceeded
     * @throws IllegalStateException if a run is already going
     */
    public Report run(CacheTemplate template, int threads, Duration duration, int valueSize) throws InterruptedException {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be between 1 and " + MAX_THREADS + ", was " + threads);
        }
        if (duration.isNegative() || duration.isZero() || duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("duration must be positive and at most " + MAX_DURATION + ", was " + duration);
        }
        if (valueSize < 1 || valueSize > MAX_VALUE_SIZE) {
            throw new IllegalArgumentException("valueSize must be between 1 and " + MAX_VALUE_SIZE + ", was " + valueSize);
        }
        if (!this.running.compareAndSet(false, true)) {
            throw new IllegalStateException("A load run is already going; wait for it to finish");
        }
        try {
            this.stopRequested.set(false);
            Report report = measure(template, threads, duration, valueSize);
            this.lastReport = report;
            return report;
        }
        finally {
            this.running.set(false);
        }
    }

    /**
     * Starts a run in the background and returns at once (the page's start button).
     * @param template where to send it
     * @param threads caller threads
     * @param duration how long
     * @param valueSize bytes per value written
     * @throws IllegalArgumentException if a bound is exceeded
     * @throws IllegalStateException if a run is already going
     */
    public void start(CacheTemplate template, int threads, Duration duration, int valueSize) {
        if (this.running.get()) {
            throw new IllegalStateException("A load run is already going; stop it first");
        }
        Thread runner = new Thread(() -> {
            try {
                run(template, threads, duration, valueSize);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            catch (RuntimeException ex) {
                // reported through status(): the run ended without a report
            }
        }, "sample-load");
        runner.setDaemon(true);
        runner.start();
    }

    /** Asks the current run to stop early. */
    public void stop() {
        this.stopRequested.set(true);
    }

    /**
     * Whether a run is going, and the last finished run's report.
     * @return the status
     */
    public Status status() {
        return new Status(this.running.get(), this.lastReport);
    }

    /**
     * The load generator's status.
     * @param running whether a run is going
     * @param lastReport the last finished run, or {@code null}
     */
    public record Status(boolean running, @Nullable Report lastReport) {
    }

    private Report measure(CacheTemplate template, int threads, Duration duration, int valueSize) throws InterruptedException {
        byte[] value = new byte[valueSize];
        ConcurrentHistogram latencyMicros = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(1), 3);
        LongAdder errors = new LongAdder();
        List<String> errorSamples = java.util.Collections.synchronizedList(new ArrayList<>());
        long deadline = System.nanoTime() + duration.toNanos();
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        long started = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            executor.execute(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (System.nanoTime() < deadline && !this.stopRequested.get()) {
                    String key = "sample:load:" + random.nextInt(KEYS);
                    long callStarted = System.nanoTime();
                    try {
                        if (random.nextInt(10) < 8) {
                            template.get(key);
                        }
                        else {
                            template.set(key, value, Duration.ofMinutes(5));
                        }
                        latencyMicros.recordValue(Math.min(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - callStarted),
                                latencyMicros.getHighestTrackableValue()));
                    }
                    catch (RuntimeException ex) {
                        errors.increment();
                        if (errorSamples.size() < 3) {
                            errorSamples.add(ex.toString());
                        }
                    }
                }
            });
        }
        executor.shutdown();
        executor.awaitTermination(duration.toMillis() + 30_000, TimeUnit.MILLISECONDS);
        double seconds = (System.nanoTime() - started) / 1e9;
        long operations = latencyMicros.getTotalCount();
        return new Report(template.name(), threads, valueSize, operations, Math.round(operations / seconds), errors.sum(),
                latencyMicros.getValueAtPercentile(50), latencyMicros.getValueAtPercentile(99),
                latencyMicros.getValueAtPercentile(99.9), errorSamples);
    }

    /**
     * What one run measured.
     * @param backend the template's name
     * @param threads caller threads
     * @param valueSize bytes per value written
     * @param operations calls that succeeded
     * @param operationsPerSecond their rate
     * @param errors calls that failed
     * @param p50Micros median latency
     * @param p99Micros 99th percentile latency
     * @param p999Micros 99.9th percentile latency
     * @param errorSamples the first few failures
     */
    public record Report(String backend, int threads, int valueSize, long operations, long operationsPerSecond, long errors,
            long p50Micros, long p99Micros, long p999Micros, List<String> errorSamples) {
    }
}
