package io.adaptivecache.benchmarks.pairs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.adaptivecache.benchmarks.load.Workload;

/**
 * Turns slices into verdicts. With several denominators ("the best JedisPool"), the best one is
 * the one with the best median over the workload's kept slices; taking the best of each cycle
 * instead would pick whichever was luckiest in that cycle and bias every ratio against the
 * numerator (two identical peers would beat a third identical one by a few percent). A cycle
 * counts for a goal when the numerator and that denominator were measured in it without errors
 * and undisturbed; its ratio is the numerator's figure over the denominator's in that same
 * cycle. The ratio of a goal is the median of those per-cycle ratios, with its 95% interval.
 */
public final class Verdicts {

    private Verdicts() {
    }

    /**
     * Every goal of a set on every workload the slices cover.
     * @param set the goals
     * @param slices the slices of one or more runs
     * @param maxDisturbanceCores outside CPU plus steal above which a slice is dropped
     * @return one row per goal and workload, in the set's order then by workload
     */
    public static List<Row> evaluate(GoalSet set, List<Slice> slices, double maxDisturbanceCores) {
        Map<Workload, List<Slice>> byWorkload = new LinkedHashMap<>();
        slices.forEach(slice -> byWorkload.computeIfAbsent(slice.workload(), any -> new ArrayList<>()).add(slice));
        List<Row> rows = new ArrayList<>();
        for (Goal goal : set.goals()) {
            byWorkload.keySet().stream().filter(workload -> workload.backend() == goal.backend())
                    .sorted(Comparator.comparing((Workload workload) -> workload.network()).thenComparing(Workload::valueBytes)
                            .thenComparing(Workload::threads))
                    .forEach(workload -> rows.add(evaluate(goal, workload, byWorkload.get(workload), maxDisturbanceCores)));
        }
        return rows;
    }

    /**
     * One goal on one workload.
     * @param goal the goal
     * @param workload the workload
     * @param slices that workload's slices
     * @param maxDisturbanceCores outside CPU plus steal above which a slice is dropped
     * @return the row
     */
    public static Row evaluate(Goal goal, Workload workload, List<Slice> slices, double maxDisturbanceCores) {
        Map<Integer, Map<String, Slice>> cycles = new TreeMap<>();
        for (Slice slice : slices) {
            cycles.computeIfAbsent(slice.cycle(), any -> new LinkedHashMap<>()).put(slice.target(), slice);
        }
        boolean cpu = goal.measure() == Goal.Measure.CPU_PER_CALL;
        String denominator = goal.bestOf().get(0);
        for (String candidate : goal.bestOf()) {
            Interval figure = figure(candidate, slices, maxDisturbanceCores, cpu);
            Interval best = figure(denominator, slices, maxDisturbanceCores, cpu);
            if (figure.pairs() > 0 && (best.pairs() == 0 || (cpu ? figure.median() < best.median() : figure.median() > best.median()))) {
                denominator = candidate;
            }
        }
        List<Double> ratios = new ArrayList<>();
        int measured = 0;
        int disturbed = 0;
        for (Map<String, Slice> cycle : cycles.values()) {
            Slice numerator = cycle.get(goal.numerator());
            Slice against = cycle.get(denominator);
            if (numerator == null || against == null) {
                continue;
            }
            measured++;
            List<Slice> involved = List.of(numerator, against);
            if (involved.stream().anyMatch(slice -> slice.disturbed(maxDisturbanceCores))) {
                disturbed++;
                continue;
            }
            if (!involved.stream().allMatch(Slice::usable)) {
                continue;
            }
            if (cpu && !involved.stream().allMatch(slice -> slice.cpuMicrosPerCall() > 0)) {
                continue; // no CPU figure where /proc cannot be read and the JDK's ticks saw none
            }
            ratios.add(cpu ? numerator.cpuMicrosPerCall() / against.cpuMicrosPerCall() : numerator.opsPerSecond() / against.opsPerSecond());
        }
        Interval interval = Interval.of(ratios);
        double threshold = goal.threshold(workload.threads());
        Verdict verdict = goal.control() ? Verdict.NONE : Verdict.of(interval, threshold, goal.measure().higherIsBetter());
        return new Row(goal, workload, denominator, interval, measured, disturbed, verdict);
    }

    /**
     * A target's own figure over the cycles a workload kept: median and interval.
     * @param target the target
     * @param slices the workload's slices
     * @param maxDisturbanceCores the disturbance limit
     * @param cpu CPU per call rather than throughput
     * @return the interval
     */
    public static Interval figure(String target, List<Slice> slices, double maxDisturbanceCores, boolean cpu) {
        return Interval.of(slices.stream().filter(slice -> slice.target().equals(target) && slice.usable()
                && !slice.disturbed(maxDisturbanceCores)).map(slice -> cpu ? slice.cpuMicrosPerCall() : slice.opsPerSecond()).toList());
    }

    /**
     * One goal's result on one workload.
     * @param goal the goal
     * @param workload the workload
     * @param denominator the denominator compared with: the best of the goal's by its median
     * @param interval the ratio's median and 95% interval over the kept cycles
     * @param cycles cycles in which every target of the comparison was measured
     * @param disturbed those dropped because another process disturbed one of their slices
     * @param verdict the verdict ({@link Verdict#NONE} for controls and rows without a goal)
     */
    public record Row(Goal goal, Workload workload, String denominator, Interval interval, int cycles, int disturbed,
            Verdict verdict) {

        /** @return whether this row still needs pairs: a goal whose interval straddles its threshold */
        public boolean undecided() {
            return this.verdict == Verdict.UNDECIDED;
        }

        /** @return for an A/A control, whether its interval contains 1.0 (the instrument shows no difference that is not there) */
        public boolean controlHolds() {
            return this.interval.pairs() > 1 && this.interval.contains(1.0);
        }

        /** @return the verdict as the table shows it; for a control, whether it holds */
        public String status() {
            if (this.goal.control()) {
                if (this.interval.pairs() < 2) {
                    return "too few pairs";
                }
                return controlHolds() ? "holds" : "FAILS: interval excludes 1.0";
            }
            return this.verdict.word();
        }
    }
}
