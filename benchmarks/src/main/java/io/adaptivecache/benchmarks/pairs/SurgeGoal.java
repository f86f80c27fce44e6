package io.adaptivecache.benchmarks.pairs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The surge goal: after a step in load, a self-tuning target keeps up with a fixed reference
 * second by second. From {@code from} after the step on, each of the target's windows must reach
 * {@code minRatio} of the reference's median window over the same span of the same cycle, and no
 * call of the target may fail in the phase. The reference's median, not its window of the same
 * index, is the yardstick: the two ran at different times, so their windows pair by nothing but
 * position, and one slow second of the reference would excuse a slow second of the target. A
 * cycle in which either was disturbed (or the reference failed a call) is left out of the ratio;
 * a failed call of the target counts in every cycle.
 *
 * @param target the target judged
 * @param reference the fixed target it is held to
 * @param from how long after the step the judging starts
 * @param minRatio the least share of the reference's median any window may have
 */
record SurgeGoal(String target, String reference, Duration from, double minRatio) {

    /**
     * The first window judged: the first that starts at or after {@code from}.
     * @param window the timeline's window
     * @return its index
     */
    int firstWindow(Duration window) {
        return (int) ((this.from.toNanos() + window.toNanos() - 1) / window.toNanos());
    }

    /**
     * Judges one phase of a sequence over its cycles.
     * @param step the judged phase's index
     * @param sequence the sequence's slices, every target and cycle
     * @param window the timeline's window
     * @param maxDisturbanceCores outside CPU plus steal above which a phase is dropped
     * @return a row per cycle and the verdict
     */
    Result evaluate(int step, List<PhaseSlice> sequence, Duration window, double maxDisturbanceCores) {
        Map<Integer, PhaseSlice> targets = new TreeMap<>();
        Map<Integer, PhaseSlice> references = new TreeMap<>();
        for (PhaseSlice slice : sequence) {
            if (slice.phaseIndex() != step) {
                continue;
            }
            if (slice.target().equals(this.target)) {
                targets.put(slice.cycle(), slice);
            }
            else if (slice.target().equals(this.reference)) {
                references.put(slice.cycle(), slice);
            }
        }
        int first = firstWindow(window);
        List<Cycle> cycles = new ArrayList<>();
        long failed = 0;
        for (PhaseSlice ours : targets.values()) {
            failed += ours.errors();
            PhaseSlice against = references.get(ours.cycle());
            // Which strategy the target ran when the step came: its first window's.
            String atStep = ours.strategies().length > 0 ? ours.strategies()[0] : ours.strategy();
            boolean kept = against != null && !ours.disturbed(maxDisturbanceCores) && !against.disturbed(maxDisturbanceCores)
                    && against.errors() == 0 && ours.rates().length > first && against.rates().length > first;
            if (!kept) {
                cycles.add(new Cycle(ours.cycle(), false, atStep, Double.NaN, Double.NaN, 0, 0, 0, ours.errors()));
                continue;
            }
            double yardstick = median(Arrays.copyOfRange(against.rates(), first, against.rates().length));
            double worst = Double.POSITIVE_INFINITY;
            for (int i = first; i < ours.rates().length; i++) {
                worst = Math.min(worst, yardstick > 0 ? ours.rates()[i] / yardstick : 0);
            }
            int below = below(ours.rates(), first, yardstick);
            cycles.add(new Cycle(ours.cycle(), true, atStep, yardstick, worst, ours.rates().length - first, below,
                    below(against.rates(), first, yardstick), ours.errors()));
        }
        boolean anyKept = cycles.stream().anyMatch(Cycle::kept);
        boolean fellShort = cycles.stream().anyMatch(cycle -> cycle.kept() && cycle.windowsBelow() > 0);
        Verdict verdict = failed > 0 || fellShort ? Verdict.MISSED : anyKept ? Verdict.MET : Verdict.UNDECIDED;
        return new Result(this, List.copyOf(cycles), failed, verdict);
    }

    /** The windows from {@code first} on below {@code minRatio} of the yardstick. */
    private int below(double[] rates, int first, double yardstick) {
        int below = 0;
        for (int i = first; i < rates.length; i++) {
            if ((yardstick > 0 ? rates[i] / yardstick : 0) < this.minRatio) {
                below++;
            }
        }
        return below;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /**
     * One cycle of the judged phase.
     * @param cycle the cycle
     * @param kept whether it counts for the ratio: both measured, neither disturbed, the reference without a failure
     * @param strategyAtStep what the target ran in the step's first window
     * @param referenceMedian the reference's median calls per second from {@code from} on
     * @param worstRatio the target's slowest window from {@code from} on, over that median
     * @param windowsJudged the target's windows from {@code from} on
     * @param windowsBelow those below {@code minRatio}
     * @param referenceWindowsBelow the reference's own windows from {@code from} on below {@code minRatio} of its median:
     *        how often the machine alone makes a fixed strategy fall short, for reading {@code windowsBelow} (not part of
     *        the verdict)
     * @param failedCalls the target's failed calls in the phase
     */
    record Cycle(int cycle, boolean kept, String strategyAtStep, double referenceMedian, double worstRatio, int windowsJudged,
            int windowsBelow, int referenceWindowsBelow, long failedCalls) {
    }

    /**
     * The goal over every cycle.
     * @param goal the goal
     * @param cycles a row per cycle the target ran
     * @param failedCalls the target's failed calls in the phase, over every cycle
     * @param verdict met when a cycle was kept and no kept window fell short and no call failed; missed when a
     *        kept window fell short or a call failed; undecided without a kept cycle
     */
    record Result(SurgeGoal goal, List<Cycle> cycles, long failedCalls, Verdict verdict) {
    }
}
