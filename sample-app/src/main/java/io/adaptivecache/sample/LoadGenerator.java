package io.adaptivecache.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import io.adaptivecache.CacheTemplate;
import org.HdrHistogram.ConcurrentHistogram;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * A bounded closed-loop load: {@code threads} callers doing 80% get / 20% set over 10,000 keys
 * for {@code duration}, so a person can watch the strategy's numbers move. One run at a time.
 * Its report counts failed calls by exception type and says what each type means, so that a
 * page showing "5975 errors" also says why (see {@link ErrorCause}).
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

    /** Most distinct template and exception type pairs one report lists; the rest are counted under {@code other}. */
    private static final int MAX_ERROR_TYPES = 8;

    private final AtomicBoolean running = new AtomicBoolean();
    private volatile @Nullable String current;
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
        return run(List.of(template), threads, duration, valueSize, "");
    }

    /**
     * Runs the load over several templates at once, the callers split evenly between them, and
     * waits for it to finish.
     * @param templates where to send it
     * @param threads caller threads in all, 1 to {@value #MAX_THREADS}, at least one per template
     * @param duration how long, up to {@link #MAX_DURATION}
     * @param valueSize bytes per value written, 1 to {@value #MAX_VALUE_SIZE}
     * @param label what the page calls the run ("demo"), or empty
     * @return what it measured
     * @throws IllegalArgumentException if a bound is exceeded
     * @throws IllegalStateException if a run is already going
     */
    public Report run(List<? extends CacheTemplate> templates, int threads, Duration duration, int valueSize, String label)
            throws InterruptedException {
        checkBounds(templates, threads, duration, valueSize);
        if (!this.running.compareAndSet(false, true)) {
            throw new IllegalStateException("A load run is already going; wait for it to finish");
        }
        try {
            this.stopRequested.set(false);
            this.current = (label.isEmpty() ? "" : label + ": ") + threads + " callers on " + names(templates) + " for "
                    + duration.toSeconds() + " s";
            Report report = measure(templates, threads, duration, valueSize, label);
            this.lastReport = report;
            return report;
        }
        finally {
            this.current = null;
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
        start(List.of(template), threads, duration, valueSize, "");
    }

    /**
     * Starts a run over several templates in the background and returns at once.
     * @param templates where to send it
     * @param threads caller threads in all
     * @param duration how long
     * @param valueSize bytes per value written
     * @param label what the page calls the run ("demo"), or empty
     * @throws IllegalArgumentException if a bound is exceeded
     * @throws IllegalStateException if a run is already going
     */
    public void start(List<? extends CacheTemplate> templates, int threads, Duration duration, int valueSize, String label) {
        if (this.running.get()) {
            throw new IllegalStateException("A load run is already going; stop it first");
        }
        checkBounds(templates, threads, duration, valueSize);
        List<? extends CacheTemplate> targets = List.copyOf(templates);
        Thread runner = new Thread(() -> {
            try {
                run(targets, threads, duration, valueSize, label);
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
        return new Status(this.running.get(), this.current, this.lastReport);
    }

    /**
     * The load generator's status.
     * @param running whether a run is going
     * @param current what the running run does ("demo: 16 callers on redis + memcached for 25 s"), or {@code null}
     * @param lastReport the last finished run, or {@code null}
     */
    public record Status(boolean running, @Nullable String current, @Nullable Report lastReport) {
    }

    private Report measure(List<? extends CacheTemplate> templates, int threads, Duration duration, int valueSize, String label)
            throws InterruptedException {
        byte[] value = new byte[valueSize];
        ConcurrentHistogram latencyMicros = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(1), 3);
        LongAdder errors = new LongAdder();
        Map<ErrorKey, LongAdder> errorsByType = new ConcurrentHashMap<>();
        Map<ErrorKey, String> firstErrorByType = new ConcurrentHashMap<>();
        List<String> errorSamples = java.util.Collections.synchronizedList(new ArrayList<>());
        long deadline = System.nanoTime() + duration.toNanos();
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        long started = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            CacheTemplate template = templates.get(t % templates.size());
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
                        // Bounded: a few types at most, then "other"; the first message of each type is kept as its example.
                        ErrorKey type = new ErrorKey(template.name(), ex.getClass().getSimpleName());
                        if (!errorsByType.containsKey(type) && errorsByType.size() >= MAX_ERROR_TYPES) {
                            type = new ErrorKey(template.name(), "other");
                        }
                        errorsByType.computeIfAbsent(type, any -> new LongAdder()).increment();
                        firstErrorByType.putIfAbsent(type, String.valueOf(ex.getMessage()));
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
        List<ErrorCause> causes = errorsByType.entrySet().stream()
                .map(entry -> new ErrorCause(entry.getKey().backend(), entry.getKey().type(), entry.getValue().sum(),
                        explain(entry.getKey().type()), firstErrorByType.getOrDefault(entry.getKey(), "")))
                .sorted(Comparator.comparingLong(ErrorCause::count).reversed()).toList();
        return new Report(names(templates), label, threads, valueSize, operations, Math.round(operations / seconds), errors.sum(),
                latencyMicros.getValueAtPercentile(50), latencyMicros.getValueAtPercentile(99),
                latencyMicros.getValueAtPercentile(99.9), errorSamples, causes);
    }

    private record ErrorKey(String backend, String type) {
    }

    private static void checkBounds(List<? extends CacheTemplate> templates, int threads, Duration duration, int valueSize) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be between 1 and " + MAX_THREADS + ", was " + threads);
        }
        if (templates.isEmpty() || threads < templates.size()) {
            throw new IllegalArgumentException("threads must be at least one per template (" + templates.size() + "), was " + threads);
        }
        if (duration.isNegative() || duration.isZero() || duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("duration must be positive and at most " + MAX_DURATION + ", was " + duration);
        }
        if (valueSize < 1 || valueSize > MAX_VALUE_SIZE) {
            throw new IllegalArgumentException("valueSize must be between 1 and " + MAX_VALUE_SIZE + ", was " + valueSize);
        }
    }

    private static String names(List<? extends CacheTemplate> templates) {
        return templates.stream().map(CacheTemplate::name).collect(Collectors.joining(" + "));
    }

    /**
     * What a failed call of a type means for a person watching the page. A pool that runs out is
     * not an outage: the server is fine, and the calls failed because the callers outnumber the
     * pooled connections.
     */
    static String explain(String type) {
        return switch (type) {
            case "CachePoolExhaustedException" -> "the pool collapsed under this many callers: every pooled connection was busy,"
                    + " so callers queued for one and gave up after the pool's max-wait. A pool peaks early and then falls as"
                    + " callers grow; shared connections (SINGLE, MULTI) do not make callers wait for a connection, which is"
                    + " why the switcher leaves POOLED when callers wait about as long as they use it (POOL_CONTENTION)";
            case "CacheTimeoutException" -> "the server, or the network on the way, did not answer within the command timeout";
            case "CacheConnectionException" -> "no connection to the server: it is down or unreachable";
            case "CacheRejectedException" -> "not attempted: the circuit breaker is open after recent failures, the bulkhead is"
                    + " full, or the client's queue to the server is full";
            default -> "see the example message";
        };
    }

    /**
     * Failed calls of one exception type on one template.
     * @param backend the template's name
     * @param type the exception's simple class name, or {@code other} past the first few types
     * @param count how many calls failed so
     * @param explanation what it means, in words
     * @param example the first such failure's message
     */
    public record ErrorCause(String backend, String type, long count, String explanation, String example) {
    }

    /**
     * What one run measured.
     * @param backend the templates' names
     * @param label what the page calls the run ("demo"), or empty
     * @param threads caller threads
     * @param valueSize bytes per value written
     * @param operations calls that succeeded
     * @param operationsPerSecond their rate
     * @param errors calls that failed
     * @param p50Micros median latency
     * @param p99Micros 99th percentile latency
     * @param p999Micros 99.9th percentile latency
     * @param errorSamples the first few failures
     * @param errorCauses the failed calls by exception type, most first, each with what it means
     */
    public record Report(String backend, String label, int threads, int valueSize, long operations, long operationsPerSecond, long errors,
            long p50Micros, long p99Micros, long p999Micros, List<String> errorSamples, List<ErrorCause> errorCauses) {
    }
}
