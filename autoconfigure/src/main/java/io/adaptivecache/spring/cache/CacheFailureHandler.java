package io.adaptivecache.spring.cache;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a failed cache operation means for the caller: by default a read is a miss
 * and a write is skipped, so a cache outage never fails a request. Failures are counted and
 * logged at most once per interval (a burst of failures is one line with its count).
 */
public class CacheFailureHandler {

    private static final Logger logger = LoggerFactory.getLogger(CacheFailureHandler.class);

    private final boolean rethrow;
    private final long logIntervalNanos;
    private final LongAdder failures = new LongAdder();
    private final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - TimeUnit.DAYS.toNanos(1));
    private final AtomicLong failuresAtLastLog = new AtomicLong();

    /**
     * Creates a handler.
     * @param rethrow whether failures reach the caller instead of degrading
     * @param logInterval shortest time between two log lines
     */
    public CacheFailureHandler(boolean rethrow, java.time.Duration logInterval) {
        this.rethrow = rethrow;
        this.logIntervalNanos = logInterval.toNanos();
    }

    /**
     * Handles a failure.
     * @param cacheName the cache
     * @param operation what was attempted, such as {@code get}
     * @param failure what went wrong
     * @throws RuntimeException the failure itself when configured to rethrow
     */
    public void handle(String cacheName, String operation, RuntimeException failure) {
        this.failures.increment();
        if (this.rethrow) {
            throw failure;
        }
        long now = System.nanoTime();
        long last = this.lastLogged.get();
        if (now - last >= this.logIntervalNanos && this.lastLogged.compareAndSet(last, now)) {
            long total = this.failures.sum();
            long sinceLast = total - this.failuresAtLastLog.getAndSet(total);
            logger.warn("Cache '{}' {} failed ({} cache failures since the last report; reads are misses and writes are skipped): {}",
                    cacheName, operation, sinceLast, failure.getMessage());
        }
    }

    /**
     * Whether failures reach the caller rather than degrading to a miss or a skipped write.
     * @return {@code true} when configured to rethrow
     */
    public boolean rethrows() {
        return this.rethrow;
    }

    /**
     * Failures handled so far.
     * @return the count
     */
    public long failureCount() {
        return this.failures.sum();
    }
}
