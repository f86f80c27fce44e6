package io.adaptivecache.benchmarks.http;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.adaptivecache.benchmarks.pairs.Interval;
import io.adaptivecache.benchmarks.pairs.RatioRow;
import io.adaptivecache.benchmarks.pairs.Verdict;

/**
 * Slices into verdicts, as the pair harness makes them: a cycle counts for a comparison when both
 * applications ran in it without errors and neither slice was disturbed; its ratio is the
 * numerator's figure over the denominator's in that cycle; a comparison's ratio is the median of
 * those, with its 95% interval ({@link Interval}) and a verdict against the goal ({@link Verdict}).
 */
final class HttpVerdicts {

    private HttpVerdicts() {
    }

    /**
     * Every comparison at every connection count the slices cover.
     * @param goals the comparisons
     * @param slices the slices
     * @param maxDisturbanceCores outside CPU plus steal above which a slice is dropped
     * @return one row per comparison and connection count, in the comparisons' order, then by connections
     */
    static List<Row> evaluate(List<HttpGoal> goals, List<HttpSlice> slices, double maxDisturbanceCores) {
        List<Integer> connections = slices.stream().map(HttpSlice::connections).distinct().sorted().toList();
        List<Row> rows = new ArrayList<>();
        for (HttpGoal goal : goals) {
            for (int count : connections) {
                rows.add(evaluate(goal, count, slices, maxDisturbanceCores));
            }
        }
        return rows;
    }

    /**
     * One comparison at one connection count.
     * @param goal the comparison
     * @param connections the connection count
     * @param slices the slices (others' are ignored)
     * @param maxDisturbanceCores the disturbance limit
     * @return the row
     */
    static Row evaluate(HttpGoal goal, int connections, List<HttpSlice> slices, double maxDisturbanceCores) {
        Map<Integer, Map<String, HttpSlice>> cycles = new TreeMap<>();
        for (HttpSlice slice : slices) {
            if (slice.connections() == connections) {
                cycles.computeIfAbsent(slice.cycle(), any -> new HashMap<>()).put(slice.app(), slice);
            }
        }
        List<Double> ratios = new ArrayList<>();
        int measured = 0;
        int disturbed = 0;
        for (Map<String, HttpSlice> cycle : cycles.values()) {
            HttpSlice numerator = cycle.get(goal.numerator());
            HttpSlice denominator = cycle.get(goal.denominator());
            if (numerator == null || denominator == null) {
                continue;
            }
            measured++;
            if (numerator.disturbed(maxDisturbanceCores) || denominator.disturbed(maxDisturbanceCores)) {
                disturbed++;
                continue;
            }
            if (!numerator.usable() || !denominator.usable() || !(goal.measure().of(denominator) > 0)) {
                continue;
            }
            ratios.add(goal.measure().of(numerator) / goal.measure().of(denominator));
        }
        Interval interval = Interval.of(ratios);
        Verdict verdict = goal.control() ? Verdict.NONE
                : Verdict.of(interval, goal.threshold(connections), goal.measure().higherIsBetter());
        return new Row(goal, connections, interval, measured, disturbed, verdict);
    }

    /**
     * An application's own figure over the slices a connection count kept: median and interval.
     * @param app the application
     * @param connections the connection count
     * @param slices the slices
     * @param maxDisturbanceCores the disturbance limit
     * @param measure requests per second or p99
     * @return the interval
     */
    static Interval figure(String app, int connections, List<HttpSlice> slices, double maxDisturbanceCores,
            java.util.function.ToDoubleFunction<HttpSlice> measure) {
        return Interval.of(slices.stream().filter(slice -> slice.app().equals(app) && slice.connections() == connections
                && slice.usable() && !slice.disturbed(maxDisturbanceCores)).map(slice -> measure.applyAsDouble(slice)).toList());
    }

    /**
     * Whether a connection count needs another cycle: always below the least number of cycles,
     * never at the most; in between, cycles come in batches, and after each batch only while a
     * goal is undecided or a comparison (controls included) kept fewer cycles than the least
     * number, as dropped cycles are made up for.
     * @param cycle the cycles run so far
     * @param rows the comparisons' rows at this connection count
     * @param pairs the least number of cycles
     * @param maxPairs the most
     * @param batch cycles added at a time
     * @return whether to run another cycle
     */
    static boolean moreCycles(int cycle, List<Row> rows, int pairs, int maxPairs, int batch) {
        if (cycle < pairs) {
            return true;
        }
        if (cycle >= maxPairs) {
            return false;
        }
        if ((cycle - pairs) % batch != 0) {
            return true;
        }
        return rows.stream().anyMatch(row -> row.undecided() || row.interval().pairs() < pairs);
    }

    /**
     * One comparison at one connection count.
     * @param goal the comparison
     * @param connections the connection count
     * @param interval the ratio's median and 95% interval over the kept cycles
     * @param cycles cycles in which both applications were measured
     * @param disturbed those dropped because another process disturbed one of their slices
     * @param verdict the verdict ({@link Verdict#NONE} for controls and rows without a goal)
     */
    record Row(HttpGoal goal, int connections, Interval interval, int cycles, int disturbed, Verdict verdict) implements RatioRow {

        @Override
        public boolean control() {
            return this.goal.control();
        }
    }
}
