package io.adaptivecache.adaptive;

import io.adaptivecache.metrics.WindowSample;

/**
 * Decides, one window at a time, whether a template should change its connection strategy. In
 * the spirit of Netflix concurrency-limits' {@code Limit}: the window and the time are
 * arguments, there is no thread, no clock and no I/O, so the same inputs always give the same
 * decisions and tests can script hours of windows in milliseconds. Implementations keep their own
 * history (dwell, trials) and are called from one thread.
 */
public interface StrategyPolicy {

    /**
     * Decides after one window.
     * @param window the window's measurements
     * @param nowNanos the time, on the switcher's clock
     * @return stay or switch, with the reason and evidence
     */
    Decision decide(WindowSample window, long nowNanos);

    /**
     * Told whether a switch (decided here, or by an operator) was carried out, so that dwell and
     * trial start from the real switch, and a failed warm-up backs off.
     * @param decision the switch
     * @param applied whether the new strategy is now live
     * @param trial whether to judge the new strategy against the old one (and roll back if worse)
     * @param nowNanos the time
     */
    void onSwitch(Decision decision, boolean applied, boolean trial, long nowNanos);

    /**
     * Whether changes are suspended for flapping, for health reporting.
     * @param nowNanos the time
     * @return {@code true} while suppressed
     */
    default boolean isSuppressed(long nowNanos) {
        return false;
    }
}
