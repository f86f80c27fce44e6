package io.adaptivecache.benchmarks.pairs;

import java.util.Map;
import java.util.Objects;

import io.adaptivecache.benchmarks.load.Backend;

/**
 * A bound on how stale a local tier's reads may be under load: the 99th percentile of its probe's
 * per-write staleness over the slices a workload kept, at most a number of milliseconds per
 * caller count. Unlike a {@link Goal} it is a figure of one target, not a ratio of two.
 *
 * @param target the target with a local tier
 * @param backend the server
 * @param p99MillisAtMost the bound per caller count; a caller count without one is reported without a verdict
 */
public record StalenessGoal(String target, Backend backend, Map<Integer, Double> p99MillisAtMost) {

    /**
     * Checks the goal.
     * @param target the target
     * @param backend the server
     * @param p99MillisAtMost the bound per caller count
     */
    public StalenessGoal {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(backend, "backend");
        p99MillisAtMost = Map.copyOf(p99MillisAtMost);
    }

    /**
     * The bound at a caller count.
     * @param threads the caller count
     * @return milliseconds, or {@code NaN} for none
     */
    public double threshold(int threads) {
        return this.p99MillisAtMost.getOrDefault(threads, Double.NaN);
    }

    /**
     * The goal as people write it.
     * @param threads the caller count
     * @return for example {@code p99 ≤ 10 ms}, or empty
     */
    public String goalText(int threads) {
        double threshold = threshold(threads);
        return Double.isNaN(threshold) ? "" : "p99 ≤ " + (threshold == Math.rint(threshold) ? Long.toString((long) threshold)
                : Double.toString(threshold)) + " ms";
    }
}
