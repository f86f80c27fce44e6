package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

import io.adaptivecache.CacheTemplate;

/**
 * Closed-loop callers of a template, each setting and getting a key of its own, of which only as
 * many are active at each moment as the test wants (the others idle), so that a test can grow and
 * shrink the load the switcher sees. Every loop stops at its deadline, when stopped, or when closed;
 * a call that throws is counted, not thrown.
 */
final class VaryingCallers implements AutoCloseable {

    private final ExecutorService executor;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicInteger failures = new AtomicInteger();

    private VaryingCallers(int maxThreads) {
        this.executor = Executors.newFixedThreadPool(maxThreads);
    }

    /**
     * Starts the callers.
     * @param template the template they call
     * @param maxThreads how many callers there are, active or idle
     * @param wanted how many should be active at each moment, read by each caller before each call
     * @param keyPrefix the start of each caller's key, followed by its number
     * @param atMost how long the callers run at the most
     * @return the running callers
     */
    static VaryingCallers start(CacheTemplate template, int maxThreads, IntSupplier wanted, String keyPrefix, Duration atMost) {
        VaryingCallers callers = new VaryingCallers(maxThreads);
        long deadline = System.nanoTime() + atMost.toNanos();
        byte[] value = new byte[100];
        for (int t = 0; t < maxThreads; t++) {
            int index = t;
            callers.executor.execute(() -> {
                String key = keyPrefix + index;
                while (!callers.stop.get() && System.nanoTime() < deadline) {
                    if (index >= wanted.getAsInt()) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // an idle caller
                        continue;
                    }
                    try {
                        template.set(key, value, Duration.ofMinutes(1));
                        template.get(key);
                    }
                    catch (RuntimeException ex) {
                        callers.failures.incrementAndGet();
                    }
                }
            });
        }
        return callers;
    }

    /** The calls that threw so far. */
    int failures() {
        return this.failures.get();
    }

    /** Tells every caller to stop after the call it is in. */
    void stop() {
        this.stop.set(true);
    }

    /** Stops the callers and waits for them (at most 10 s). */
    @Override
    public void close() throws InterruptedException {
        stop();
        this.executor.shutdownNow();
        this.executor.awaitTermination(10, TimeUnit.SECONDS);
    }
}
