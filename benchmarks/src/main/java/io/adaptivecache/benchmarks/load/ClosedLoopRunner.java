package io.adaptivecache.benchmarks.load;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.adaptivecache.redis.RedisWrites;
import org.HdrHistogram.Histogram;

/**
 * Runs closed-loop callers against one client: each caller issues gets and sets of one value over
 * {@value #KEYS} keys as the workload's {@link Mix} says (80% gets of uniform keys unless told
 * otherwise), back to back, for a warm-up, an optional settling period and a
 * measured window. Latency is recorded per caller in its own HdrHistogram (no shared state on
 * the callers' path but two volatile reads) and merged afterwards; only calls that start and end
 * inside the window count. Client CPU is the process's CPU time over the window, which is the
 * client's alone because the servers and the delaying proxy run as other processes.
 */
public final class ClosedLoopRunner {

    /** The key space. */
    public static final int KEYS = 10_000;

    /** The prefix of the key space every client reads and writes unless it asks for its own ({@link LoadedClient#keyPrefix()}). */
    public static final String KEY_PREFIX = "bench:";

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(1);
    private static final int WARMING = 0;
    private static final int MEASURING = 1;
    private static final int STOPPED = 2;

    private final Duration warmUp;
    private final Duration measured;
    private final Duration settleLimit;
    private volatile String[] keys = keys(KEY_PREFIX);
    private volatile int phase;

    /**
     * Creates a runner.
     * @param warmUp load before measuring, for JIT, connections and pools
     * @param measured the measured window
     * @param settleLimit the longest a self-tuning client may take to settle after the warm-up
     */
    public ClosedLoopRunner(Duration warmUp, Duration measured, Duration settleLimit) {
        this.warmUp = warmUp;
        this.measured = measured;
        this.settleLimit = settleLimit;
    }

    private static String[] keys(String prefix) {
        String[] keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = prefix + i;
        }
        return keys;
    }

    /**
     * The name of a key of the key space.
     * @param index from 0 to {@value #KEYS} - 1
     * @return the key
     */
    public static String key(int index) {
        return KEY_PREFIX + index;
    }

    /**
     * Loads the client with the workload's callers and returns the measured figures.
     * @param target the target's id, for the result
     * @param client the client
     * @param workload the workload
     * @param round the round, for the result
     * @param value the value every set writes
     * @return the figures
     */
    public CellResult run(String target, LoadedClient client, Workload workload, int round, byte[] value) {
        if (!client.keyPrefix().equals(KEY_PREFIX)) {
            this.keys = keys(client.keyPrefix());
        }
        this.phase = WARMING;
        List<Caller> callers = new ArrayList<>(workload.threads());
        List<Thread> threads = new ArrayList<>(workload.threads());
        long started = System.nanoTime();
        for (int i = 0; i < workload.threads(); i++) {
            Caller caller = new Caller(client, value, workload.mix(), 0x5eed + 31L * i + round);
            callers.add(caller);
            Thread thread = new Thread(caller, "bench-caller-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        pause(this.warmUp.toNanos());
        Settling settling = client.settle(started, this.settleLimit);
        // The counters run from the client's start: only their difference over the window leaves out the warm-up and settling.
        Optional<RedisWrites> writesBefore = client.redisWrites();
        CpuClock cpuBefore = CpuClock.now();
        long windowStart = System.nanoTime();
        this.phase = MEASURING;
        pause(this.measured.toNanos());
        // Read the CPU clock while the callers still live: a thread's time is read from its own /proc entry, gone once it ends.
        long cpuNanos = CpuClock.now().since(cpuBefore);
        long windowNanos = System.nanoTime() - windowStart;
        RedisWrites writes = writesBefore.flatMap(before -> client.redisWrites().map(after -> after.since(before))).orElse(null);
        this.phase = STOPPED;
        for (Thread thread : threads) {
            try {
                // A caller finishes its current call first; every client's own timeout bounds that.
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while stopping the callers", ex);
            }
            if (thread.isAlive()) {
                throw new IllegalStateException(target + ": caller " + thread.getName() + " still busy 30 s after the window closed");
            }
        }
        Histogram latency = new Histogram(HIGHEST_MICROS, 3);
        long errors = 0;
        long misses = 0;
        String firstError = null;
        for (Caller caller : callers) {
            latency.add(caller.latency);
            errors += caller.errors;
            misses += caller.misses;
            if (firstError == null && caller.firstError != null) {
                firstError = caller.firstError.getClass().getSimpleName() + ": " + caller.firstError.getMessage();
            }
        }
        long operations = latency.getTotalCount();
        double seconds = windowNanos / 1e9;
        return new CellResult(target, workload, round, operations, misses, operations / seconds, latency.getValueAtPercentile(50),
                latency.getValueAtPercentile(99), latency.getValueAtPercentile(99.9), errors, firstError, cpuNanos / (double) windowNanos,
                operations == 0 ? 0 : cpuNanos / 1e3 / operations, settling, writes);
    }

    /** Fixed-length windows are the measurement itself (closed-loop throughput over a set time), not a wait for a condition. */
    private static void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * This JVM's CPU time since a snapshot. The JDK's figure comes in scheduler ticks (10 ms here),
     * too coarse for a slice of a second at a few hundred calls per second; Linux keeps each
     * thread's run time in nanoseconds in {@code /proc/self/task/<tid>/schedstat}. The time is
     * summed per thread as the difference from the snapshot, so that a thread ending inside the
     * window (the JIT's and GC's come and go) loses only its share of the window instead of taking
     * its whole past with it; a thread started inside the window counts from zero.
     */
    static final class CpuClock {

        private final Map<String, Long> threads;
        private final long process;

        private CpuClock(Map<String, Long> threads, long process) {
            this.threads = threads;
            this.process = process;
        }

        static CpuClock now() {
            Map<String, Long> threads = new HashMap<>();
            if (Files.isDirectory(TASKS)) {
                try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
                    for (Path task : tasks) {
                        try {
                            String schedstat = Files.readString(task.resolve("schedstat"));
                            threads.put(task.getFileName().toString(), Long.parseLong(schedstat.substring(0, schedstat.indexOf(' '))));
                        }
                        catch (IOException | RuntimeException ex) {
                            // The thread ended between the listing and the read.
                        }
                    }
                }
                catch (IOException ex) {
                    threads.clear();
                }
            }
            return new CpuClock(threads, ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime());
        }

        /** @return CPU nanoseconds from {@code earlier} to this snapshot */
        long since(CpuClock earlier) {
            if (this.threads.isEmpty() || earlier.threads.isEmpty()) {
                return this.process - earlier.process;
            }
            long total = 0;
            for (Map.Entry<String, Long> thread : this.threads.entrySet()) {
                total += Math.max(0, thread.getValue() - earlier.threads.getOrDefault(thread.getKey(), 0L));
            }
            return total;
        }
    }

    /** One caller; its histogram and counters are its own until it has stopped. */
    private final class Caller implements Runnable {

        private final LoadedClient client;
        private final byte[] value;
        private final Mix mix;
        private final SplittableRandom random;
        private final Histogram latency = new Histogram(HIGHEST_MICROS, 3);
        private long errors;
        private long misses;
        private RuntimeException firstError;

        Caller(LoadedClient client, byte[] value, Mix mix, long seed) {
            this.client = client;
            this.value = value;
            this.mix = mix;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public void run() {
            String[] keys = ClosedLoopRunner.this.keys;
            while (true) {
                int startPhase = ClosedLoopRunner.this.phase;
                if (startPhase == STOPPED) {
                    return;
                }
                String key = keys[this.mix.nextKey(this.random)];
                boolean read = this.mix.nextIsRead(this.random);
                long start = System.nanoTime();
                RuntimeException failure = null;
                boolean missed = false;
                try {
                    if (read) {
                        missed = this.client.get(key) == null;
                    }
                    else {
                        this.client.set(key, this.value);
                    }
                }
                catch (RuntimeException ex) {
                    failure = ex;
                }
                long micros = (System.nanoTime() - start) / 1000;
                if (startPhase == MEASURING && ClosedLoopRunner.this.phase == MEASURING) {
                    if (failure == null) {
                        this.latency.recordValue(Math.min(micros, HIGHEST_MICROS));
                        if (missed) {
                            this.misses++;
                        }
                    }
                    else {
                        this.errors++;
                        if (this.firstError == null) {
                            this.firstError = failure;
                        }
                    }
                }
            }
        }
    }
}
