package io.adaptivecache.benchmarks.pairs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import io.adaptivecache.benchmarks.load.Backend;
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
        return perWorkload(set.goals(), Goal::backend, slices,
                (goal, workload, its) -> evaluate(goal, workload, its, maxDisturbanceCores));
    }

    /** Judges one goal on one workload's slices. */
    private interface Judge<G, R> {
        R judge(G goal, Workload workload, List<Slice> slices);
    }

    /**
     * Each goal on every workload of its backend that the slices cover, in the goals' order then by
     * network, value size and callers: the walk that throughput and staleness goals share.
     */
    private static <G, R> List<R> perWorkload(List<G> goals, Function<G, Backend> backend, List<Slice> slices, Judge<G, R> judge) {
        Map<Workload, List<Slice>> byWorkload = new LinkedHashMap<>();
        slices.forEach(slice -> byWorkload.computeIfAbsent(slice.workload(), any -> new ArrayList<>()).add(slice));
        List<R> rows = new ArrayList<>();
        for (G goal : goals) {
            byWorkload.keySet().stream().filter(workload -> workload.backend() == backend.apply(goal))
                    .sorted(Comparator.comparing((Workload workload) -> workload.network()).thenComparing(Workload::valueBytes)
                            .thenComparing(Workload::threads))
                    .forEach(workload -> rows.add(judge.judge(goal, workload, byWorkload.get(workload))));
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
            Verdict verdict) implements RatioRow {

        @Override
        public boolean control() {
            return this.goal.control();
        }
    }

    /**
     * Every staleness goal of a set on every workload the slices cover.
     * @param set the goals
     * @param slices the slices of one or more runs
     * @param maxDisturbanceCores outside CPU plus steal above which a slice is dropped
     * @return one row per staleness goal and workload
     */
    public static List<StalenessRow> staleness(GoalSet set, List<Slice> slices, double maxDisturbanceCores) {
        return perWorkload(set.staleness(), StalenessGoal::backend, slices,
                (goal, workload, its) -> staleness(goal, workload, its, maxDisturbanceCores));
    }

    /**
     * One staleness goal on one workload: the 99th percentile of every write's staleness over the
     * target's kept slices (pooled), with a 95% interval from resampling those slices (a write's
     * staleness depends on what else ran in its slice, so slices, not writes, are the independent
     * units), and the largest staleness seen.
     * @param goal the goal
     * @param workload the workload
     * @param slices that workload's slices
     * @param maxDisturbanceCores outside CPU plus steal above which a slice is dropped
     * @return the row
     */
    public static StalenessRow staleness(StalenessGoal goal, Workload workload, List<Slice> slices, double maxDisturbanceCores) {
        List<long[]> kept = new ArrayList<>();
        int measured = 0;
        int disturbed = 0;
        for (Slice slice : slices) {
            if (!slice.target().equals(goal.target()) || !slice.staleness().measured()) {
                continue;
            }
            measured++;
            if (slice.disturbed(maxDisturbanceCores)) {
                disturbed++;
                continue;
            }
            if (slice.usable()) {
                kept.add(slice.staleness().values());
            }
        }
        long writes = kept.stream().mapToLong(values -> values.length).sum();
        if (writes == 0) {
            return new StalenessRow(goal, workload, Interval.EMPTY, Double.NaN, 0, measured, disturbed,
                    Double.isNaN(goal.threshold(workload.threads())) ? Verdict.NONE : Verdict.UNDECIDED);
        }
        double p99 = p99Millis(kept);
        long max = kept.stream().mapToLong(values -> values.length == 0 ? 0 : values[values.length - 1]).max().orElse(0);
        java.util.SplittableRandom random = new java.util.SplittableRandom(0x5eedL * 17 + kept.size());
        double[] resampled = new double[Interval.RESAMPLES / 2];
        List<long[]> sample = new ArrayList<>(kept.size());
        for (int r = 0; r < resampled.length; r++) {
            sample.clear();
            for (int i = 0; i < kept.size(); i++) {
                sample.add(kept.get(random.nextInt(kept.size())));
            }
            resampled[r] = p99Millis(sample);
        }
        java.util.Arrays.sort(resampled);
        Interval interval = new Interval(p99, Math.min(p99, resampled[(int) Math.floor(0.025 * (resampled.length - 1))]),
                Math.max(p99, resampled[(int) Math.ceil(0.975 * (resampled.length - 1))]), kept.size());
        Verdict verdict = Verdict.of(interval, goal.threshold(workload.threads()), false);
        return new StalenessRow(goal, workload, interval, max / 1000.0, writes, measured, disturbed, verdict);
    }

    private static double p99Millis(List<long[]> slices) {
        int total = slices.stream().mapToInt(values -> values.length).sum();
        long[] pooled = new long[total];
        int at = 0;
        for (long[] values : slices) {
            System.arraycopy(values, 0, pooled, at, values.length);
            at += values.length;
        }
        java.util.Arrays.sort(pooled);
        // The nearest-rank 99th percentile: the smallest value with at least 99% of the writes at or below it.
        int rank = (int) Math.ceil(0.99 * total);
        return pooled[Math.max(0, rank - 1)] / 1000.0;
    }

    /**
     * One staleness goal's result on one workload.
     * @param goal the goal
     * @param workload the workload
     * @param p99Millis the pooled 99th percentile of per-write staleness, in milliseconds, with its 95% interval
     * @param maxMillis the largest per-write staleness of the kept slices
     * @param writes the probe's writes in the kept slices
     * @param slices the target's slices on this workload
     * @param disturbed those dropped as disturbed
     * @param verdict the verdict ({@link Verdict#NONE} without a bound)
     */
    public record StalenessRow(StalenessGoal goal, Workload workload, Interval p99Millis, double maxMillis, long writes, int slices,
            int disturbed, Verdict verdict) {

        /** @return whether this row still needs slices */
        public boolean undecided() {
            return this.verdict == Verdict.UNDECIDED;
        }

        /** @return for example {@code 1.20 ms [0.90, 1.60]} */
        public String p99Text() {
            if (this.p99Millis.pairs() == 0) {
                return "–";
            }
            return String.format(java.util.Locale.ROOT, "%.2f ms [%.2f, %.2f]", this.p99Millis.median(), this.p99Millis.low(),
                    this.p99Millis.high());
        }
    }
}
