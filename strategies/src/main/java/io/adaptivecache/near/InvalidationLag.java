package io.adaptivecache.near;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long the server's report of a write through a near cache takes to come back, measured on
 * one sampled write at a time (the first write after the last sample was reported, given up, or
 * flushed away): a figure for the stats, nothing the tier's correctness depends on, which is why
 * it lives apart from the rule that keeps copies correct.
 */
final class InvalidationLag {

    /** A write sampled for the invalidation lag whose invalidation has not come by then is given up. */
    private static final long SAMPLE_EXPIRY_NANOS = 1_000_000_000L;

    private final AtomicReference<Sample> sample = new AtomicReference<>();
    private final LongAdder count = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final AtomicLong maxNanos = new AtomicLong();

    /** A write of the key is about to be sent: sampled if no other sample is pending. */
    void written(String key) {
        Sample current = sample.get();
        long now = System.nanoTime();
        if (current == null || now - current.sentAtNanos > SAMPLE_EXPIRY_NANOS) {
            sample.compareAndSet(current, new Sample(key, now));
        }
    }

    /** The server reported the key: the sampled write's lag, if it was the sampled key. */
    void reported(String key) {
        Sample current = sample.get();
        if (current != null && current.key.equals(key) && sample.compareAndSet(current, null)) {
            long lag = System.nanoTime() - current.sentAtNanos;
            count.increment();
            totalNanos.add(lag);
            maxNanos.accumulateAndGet(lag, Math::max);
        }
    }

    /** A flush: the sampled write's report may never come on its own. */
    void flushed() {
        sample.set(null);
    }

    /** How many sampled writes' reports came. */
    long count() {
        return count.sum();
    }

    /** Their lags' sum. */
    long totalNanos() {
        return totalNanos.sum();
    }

    /** The longest of their lags. */
    long maxNanos() {
        return maxNanos.get();
    }

    private record Sample(String key, long sentAtNanos) {
    }
}
