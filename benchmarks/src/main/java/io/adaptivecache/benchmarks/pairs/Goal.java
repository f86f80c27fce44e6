package io.adaptivecache.benchmarks.pairs;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.adaptivecache.benchmarks.load.Backend;

/**
 * One comparison the verdict harness measures, and the goal it sets: a numerator target against
 * the best of one or more denominators, per caller count.
 *
 * @param label what the row is about, for tables and charts
 * @param panel the chart panel the row belongs to (rows sharing a denominator share a panel)
 * @param backend the server
 * @param numerator the target measured (an id as in the catalog, with {@code @transport} and {@code #2} for an A/A twin)
 * @param bestOf the denominators; each cycle's ratio is taken against the best of them in that cycle
 * @param measure throughput (higher is better) or client CPU per call (lower is better)
 * @param thresholds the goal per caller count; a caller count without one is reported without a verdict
 * @param control whether this is an A/A control (the same target against itself)
 */
public record Goal(String label, String panel, Backend backend, String numerator, List<String> bestOf, Measure measure,
        Map<Integer, Double> thresholds, boolean control) {

    /** The A/A control's band: its interval must contain 1.0 and never clear 1.0 ± this. */
    public static final double CONTROL_BAND = 0.05;

    /**
     * Checks the goal.
     * @param label the row's label
     * @param panel its chart panel
     * @param backend the server
     * @param numerator the target measured
     * @param bestOf the denominators
     * @param measure what is compared
     * @param thresholds the goal per caller count
     * @param control whether it is an A/A control
     */
    public Goal {
        Objects.requireNonNull(label, "label");
        bestOf = List.copyOf(bestOf);
        thresholds = Map.copyOf(thresholds);
        if (bestOf.isEmpty()) {
            throw new IllegalArgumentException(label + ": no denominator");
        }
    }

    /**
     * The threshold at a caller count.
     * @param threads the caller count
     * @return the threshold, or {@code NaN} for none
     */
    public double threshold(int threads) {
        return this.thresholds.getOrDefault(threads, Double.NaN);
    }

    /**
     * The goal as people write it at a caller count.
     * @param threads the caller count
     * @return for example {@code ≥ 0.95}, or empty
     */
    public String goalText(int threads) {
        double threshold = threshold(threads);
        if (this.control) {
            return "contains 1.0, within 1 ± " + CONTROL_BAND;
        }
        if (Double.isNaN(threshold)) {
            return "";
        }
        return (this.measure.higherIsBetter() ? "≥ " : "≤ ") + threshold;
    }

    /** What a ratio compares. */
    public enum Measure {

        /** Calls per second; higher is better. */
        THROUGHPUT,

        /** Client-process CPU time per call; lower is better (numerator ÷ denominator). */
        CPU_PER_CALL;

        /** @return whether a larger ratio is the better one */
        public boolean higherIsBetter() {
            return this == THROUGHPUT;
        }
    }
}
