package io.adaptivecache.benchmarks.load;

import java.time.Duration;

/**
 * How a self-tuning target reached its steady state during a cell: how many switches it made,
 * when the last one happened (counted from the start of the load) and what it ran at the end.
 * Fixed targets report {@link #FIXED}.
 *
 * @param switches strategy switches during the cell
 * @param lastSwitchAfter time from the start of the load to the last switch; zero without switches
 * @param settled whether the target declared itself steady before the settling limit
 * @param finalStrategy what it ran while measured, or {@code null} for fixed targets
 */
public record Settling(int switches, Duration lastSwitchAfter, boolean settled, String finalStrategy) {

    /** A target that does not tune itself. */
    public static final Settling FIXED = new Settling(0, Duration.ZERO, true, null);
}
