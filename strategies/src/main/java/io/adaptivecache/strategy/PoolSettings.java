package io.adaptivecache.strategy;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds of a POOLED strategy.
 *
 * @param maxTotal most connections open at once; callers beyond it wait
 * @param maxIdle most idle connections kept open
 * @param minIdle idle connections opened up front and kept open
 * @param maxWait longest a caller waits for a free connection before a
 *     {@link io.adaptivecache.CacheTimeoutException}
 */
public record PoolSettings(int maxTotal, int maxIdle, int minIdle, Duration maxWait) {

    /** The defaults: 8 connections, all kept idle, none opened up front, 200 ms wait. */
    public static final PoolSettings DEFAULTS = new PoolSettings(8, 8, 0, Duration.ofMillis(200));

    /**
     * Checks the bounds are consistent.
     * @param maxTotal most connections open at once
     * @param maxIdle most idle connections kept open
     * @param minIdle idle connections opened up front
     * @param maxWait longest wait for a connection
     */
    public PoolSettings {
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxTotal < 1) {
            throw new IllegalArgumentException("Pool max-total must be at least 1, was " + maxTotal);
        }
        if (maxIdle < 0 || maxIdle > maxTotal) {
            throw new IllegalArgumentException("Pool max-idle must be between 0 and max-total (" + maxTotal + "), was " + maxIdle);
        }
        if (minIdle < 0 || minIdle > maxIdle) {
            throw new IllegalArgumentException("Pool min-idle must be between 0 and max-idle (" + maxIdle + "), was " + minIdle);
        }
        if (maxWait.isNegative() || maxWait.isZero()) {
            throw new IllegalArgumentException("Pool max-wait must be positive, was " + maxWait);
        }
    }

    /**
     * A pool of {@code size} connections, all kept idle, with the default wait.
     * @param size max-total and max-idle
     * @return the settings
     */
    public static PoolSettings ofSize(int size) {
        return new PoolSettings(size, size, 0, DEFAULTS.maxWait());
    }
}
