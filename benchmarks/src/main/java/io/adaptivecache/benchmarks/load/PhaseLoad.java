package io.adaptivecache.benchmarks.load;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Closed-loop callers that keep running from one phase to the next while the load changes under
 * them: the number of active callers and the value size are set per phase, and each phase is
 * measured window by window (throughput and what a self-tuning client runs), so that a timeline
 * shows how a client follows a change. Callers beyond the active count wait on a monitor rather
 * than spin. The mix is {@link ClosedLoopRunner}'s: 80% gets and 20% sets over
 * {@value ClosedLoopRunner#KEYS} keys, here of a key space per value size
 * ({@link #key(int, int)}), so that a phase of large values reads large values from its first call.
 */
public final class PhaseLoad implements AutoCloseable {

    /** The most callers a phase may ask for. */
    public static final int MAX_CALLERS = 256;

    private final LoadedClient client;
    private final Object gate = new Object();
    private final List<Thread> threads = new ArrayList<>();
    private final LongAdder calls = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private volatile int active;
    private volatile boolean stopped;
    private volatile byte[] value = new byte[0];
    private volatile String[] keys = new String[0];
    private volatile String firstError;

    /**
     * Creates the load; no caller runs until the first {@link #configure}.
     * @param client the client
     */
    public PhaseLoad(LoadedClient client) {
        this.client = client;
    }

    /**
     * The key of a value size's key space.
     * @param valueBytes the value size
     * @param index from 0 to {@value ClosedLoopRunner#KEYS} - 1
     * @return the key
     */
    public static String key(int valueBytes, int index) {
        return "phase:" + valueBytes + ":" + index;
    }

    /**
     * Sets the load from now on: callers start or pause, and every call from now uses the new size.
     * @param callers active callers, from 1 to {@value #MAX_CALLERS}
     * @param valueBytes the value size (its key space must have been filled)
     */
    public void configure(int callers, int valueBytes) {
        if (callers < 1 || callers > MAX_CALLERS) {
            throw new IllegalArgumentException("callers must be from 1 to " + MAX_CALLERS + ", not " + callers);
        }
        byte[] newValue = new byte[valueBytes];
        new SplittableRandom(valueBytes).nextBytes(newValue);
        String[] newKeys = new String[ClosedLoopRunner.KEYS];
        for (int i = 0; i < newKeys.length; i++) {
            newKeys[i] = key(valueBytes, i);
        }
        this.value = newValue;
        this.keys = newKeys;
        while (this.threads.size() < callers) {
            int index = this.threads.size();
            Thread thread = new Thread(() -> call(index), "phase-caller-" + index);
            thread.setDaemon(true);
            this.threads.add(thread);
            thread.start();
        }
        synchronized (this.gate) {
            this.active = callers;
            this.gate.notifyAll();
        }
    }

    /**
     * Measures the running load for a phase, window by window.
     * @param length the phase's length
     * @param window the timeline's window
     * @return the figures
     */
    public PhaseFigures measure(Duration length, Duration window) {
        Instant startedAt = Instant.now();
        long started = System.nanoTime();
        long windowNanos = window.toNanos();
        int windows = (int) Math.max(1, length.toNanos() / windowNanos);
        ClosedLoopRunner.CpuClock cpuBefore = ClosedLoopRunner.CpuClock.now();
        long gcBefore = gcMillis();
        long callsBefore = this.calls.sum();
        long errorsBefore = this.errors.sum();
        long previous = callsBefore;
        double[] rates = new double[windows];
        String[] strategies = new String[windows];
        for (int i = 0; i < windows; i++) {
            long end = started + (i + 1) * windowNanos;
            for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
            long now = this.calls.sum();
            rates[i] = (now - previous) / (windowNanos / 1e9);
            previous = now;
            String strategy = this.client.liveStrategy();
            strategies[i] = strategy == null ? "-" : strategy;
        }
        long cpuNanos = ClosedLoopRunner.CpuClock.now().since(cpuBefore);
        long gc = gcMillis() - gcBefore;
        long elapsed = System.nanoTime() - started;
        long total = this.calls.sum() - callsBefore;
        // After settling: the second half of the phase.
        double settledSum = 0;
        for (int i = windows / 2; i < windows; i++) {
            settledSum += rates[i];
        }
        double settled = settledSum / (windows - windows / 2);
        List<LoadedClient.Switch> switches = this.client.switchesSince(startedAt);
        String strategy = this.client.liveStrategy();
        return new PhaseFigures(startedAt, total, total / (elapsed / 1e9), settled, this.errors.sum() - errorsBefore,
                total == 0 ? 0 : cpuNanos / 1e3 / total, gc / (elapsed / 1e6), strategy == null ? "-" : strategy, rates, strategies,
                switches, this.firstError);
    }

    /** Time the collectors took, pauses and (for G1) concurrent cycles, since the JVM started. */
    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, collector.getCollectionTime());
        }
        return total;
    }

    private void call(int index) {
        SplittableRandom random = new SplittableRandom(0x5eedL + 31L * index);
        while (!this.stopped) {
            if (index >= this.active) {
                synchronized (this.gate) {
                    while (index >= this.active && !this.stopped) {
                        try {
                            this.gate.wait(TimeUnit.SECONDS.toMillis(1));
                        }
                        catch (InterruptedException ex) {
                            return;
                        }
                    }
                }
                continue;
            }
            String[] space = this.keys;
            String key = space[random.nextInt(space.length)];
            try {
                if (random.nextInt(5) != 0) {
                    this.client.get(key);
                }
                else {
                    this.client.set(key, this.value);
                }
                this.calls.increment();
            }
            catch (RuntimeException ex) {
                this.errors.increment();
                if (this.firstError == null) {
                    this.firstError = ex.getClass().getSimpleName() + ": " + ex.getMessage();
                }
            }
        }
    }

    /** Stops every caller, waiting for each to finish its call (bounded by the client's own timeout). */
    @Override
    public void close() {
        this.stopped = true;
        synchronized (this.gate) {
            this.gate.notifyAll();
        }
        for (Thread thread : this.threads) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * One phase's figures.
     * @param startedAt when it started
     * @param calls calls completed in it
     * @param wholeOpsPerSecond calls per second over the whole phase, settling included
     * @param settledOpsPerSecond calls per second over its second half
     * @param errors calls that failed
     * @param cpuMicrosPerCall the JVM's CPU time per call over the phase
     * @param gcShare the collectors' time over the phase's (a phase spent in collections is the heap's
     * result, not the client's: large values kept reachable longer than their calls fill it)
     * @param strategy what a self-tuning client ran at its end ({@code -} for a fixed one)
     * @param rates calls per second, window by window
     * @param strategies what it ran at the end of each window
     * @param switches its switches during the phase
     * @param firstError the first failure's description, or {@code null}
     */
    public record PhaseFigures(Instant startedAt, long calls, double wholeOpsPerSecond, double settledOpsPerSecond, long errors,
            double cpuMicrosPerCall, double gcShare, String strategy, double[] rates, String[] strategies, List<LoadedClient.Switch> switches,
            String firstError) {
    }
}
