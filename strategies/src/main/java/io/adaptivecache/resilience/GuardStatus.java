package io.adaptivecache.resilience;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of a {@link CallGuard}, free of any library's types.
 *
 * @param circuitBreaker the breaker's name, or {@code null} if there is none
 * @param circuitState {@code CLOSED}, {@code OPEN}, {@code HALF_OPEN} and so on; {@code null} without a breaker
 * @param failureRate percentage of recorded calls that failed, or -1 until enough calls were recorded
 * @param slowCallRate percentage of recorded calls that were slow, or -1 until enough calls were recorded
 * @param notPermittedCalls calls refused by the breaker (in its current window)
 * @param retry whether reads are retried
 * @param bulkheadAvailable free bulkhead permits, or -1 without a bulkhead
 */
public record GuardStatus(@Nullable String circuitBreaker, @Nullable String circuitState, float failureRate, float slowCallRate,
        long notPermittedCalls, boolean retry, int bulkheadAvailable) {

    /** The status of {@link CallGuard#NONE}. */
    public static final GuardStatus UNGUARDED = new GuardStatus(null, null, -1, -1, 0, false, -1);

    /**
     * Whether calls are being refused because the circuit is open.
     * @return {@code true} if open (including forced open)
     */
    public boolean circuitOpen() {
        return this.circuitState != null && this.circuitState.contains("OPEN") && !this.circuitState.equals("HALF_OPEN");
    }
}
