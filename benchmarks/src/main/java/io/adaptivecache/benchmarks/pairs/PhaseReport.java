package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.targets.BootDefaults;
import io.adaptivecache.benchmarks.targets.Targets;

/**
 * A phase run as {@code phases.md} and one timeline PNG per backend and sequence: per phase, each
 * target's throughput after settling and over the whole phase; the throughput goals as verdicts
 * of per-cycle ratios (the verdict harness's intervals and disturbance filter), or for a surge
 * sequence the surge goal second by second ({@link SurgeGoal}); and, for the adaptive targets, how
 * many switches each phase took and when the last one came, against the goals of at most one
 * switch per phase and settling within the dwell plus five windows of the target's timings.
 */
public final class PhaseReport {

    /** A phase whose JVM spent more than this share of it collecting garbage is named in the report. */
    static final double GC_BOUND = 0.2;

    private PhaseReport() {
    }

    /**
     * Writes the report and its charts.
     * @param out the run's directory
     * @param settings how the run measured
     * @param result the run
     * @param facts the run's facts, by section
     * @return {@code phases.md}
     * @throws IOException if a file cannot be written
     */
    public static Path write(Path out, PhaseRun.Settings settings, PhaseRun.Result result, Map<String, Map<String, String>> facts)
            throws IOException {
        double limit = settings.maxDisturbanceCores();
        List<PhaseSlice> slices = result.slices();
        StringBuilder md = new StringBuilder("# Phase run\n\n");
        md.append("Each target runs each sequence under one client opened for it (an adaptive template starts on its initial strategy),"
                + " with callers that keep running from phase to phase; targets take turns, a sequence each, in an order shuffled"
                + " and reversed per cycle. *After settling* is the second half of a phase; *whole* includes the settling. Ratio"
                + " cells: median of per-cycle ratios, 95% interval, cycles kept of those measured, verdict (**met** when the whole"
                + " interval clears the goal, **missed** when it is wholly short, *undecided* otherwise). A cycle's phase is dropped"
                + " when other processes and steal took more than " + String.format(Locale.ROOT, "%.2f", limit) + " cores during it."
                + " " + Targets.BOOT_DEFAULT + " is the template of a Spring Boot context with the starter's defaults, on the production"
                + " timings (" + BootDefaults.read().describe() + "): its policy makes no switch before a whole dwell of load, so in"
                + " phases shorter than that it runs the strategy it starts on throughout.\n\n");
        List<Verdicts.Row> all = new ArrayList<>();
        List<SurgeGoal.Result> surges = new ArrayList<>();
        List<String> settlingVerdicts = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (Backend backend : slices.stream().map(PhaseSlice::backend).distinct().toList()) {
            for (PhasePlan plan : settings.plans()) {
                List<PhaseSlice> sequence = slices.stream().filter(slice -> slice.backend() == backend
                        && slice.plan().equals(plan.name())).toList();
                if (sequence.isEmpty()) {
                    continue;
                }
                String title = backend.label() + " · " + plan.title();
                body.append("## ").append(title).append("\n\n");
                String chart = backend.name().toLowerCase(Locale.ROOT) + "-" + plan.name() + "-timeline.png";
                PhaseCharts.write(out.resolve(chart), title, plan, sequence, PhaseGoals.targets(backend, plan), settings.window(plan),
                        limit);
                body.append("![Timeline: ").append(title).append("](").append(chart).append(")\n\n");
                body.append(figures(plan, sequence, backend, limit)).append('\n');
                if (plan.surge()) {
                    SurgeGoal.Result surge = PhaseGoals.surge(backend).evaluate(plan.step(), sequence, settings.window(plan), limit);
                    surges.add(surge);
                    body.append(surgeTable(plan, surge, settings.window(plan))).append('\n');
                }
                else {
                    List<Verdicts.Row> rows = new ArrayList<>();
                    body.append(goalTable(plan, sequence, backend, limit, rows)).append('\n');
                    all.addAll(rows);
                }
                body.append(settling(plan, sequence, backend, settings, limit, settlingVerdicts)).append('\n');
            }
        }
        md.append(String.format(Locale.ROOT, "Throughput goal cells: %d met, %d missed, %d undecided. Settling and switch goal cells:"
                + " %d met, %d missed.%s%n%n", all.stream().filter(row -> row.verdict() == Verdict.MET).count(),
                all.stream().filter(row -> row.verdict() == Verdict.MISSED).count(),
                all.stream().filter(row -> row.verdict() == Verdict.UNDECIDED).count(),
                settlingVerdicts.stream().filter("met"::equals).count(), settlingVerdicts.stream().filter("missed"::equals).count(),
                surges.isEmpty() ? "" : String.format(Locale.ROOT, " Surge goals: %d met, %d missed, %d undecided.",
                        surges.stream().filter(surge -> surge.verdict() == Verdict.MET).count(),
                        surges.stream().filter(surge -> surge.verdict() == Verdict.MISSED).count(),
                        surges.stream().filter(surge -> surge.verdict() == Verdict.UNDECIDED).count())));
        md.append(body);
        md.append(VerdictReport.factsSections(facts));
        Path file = out.resolve("phases.md");
        Files.writeString(file, md, StandardCharsets.UTF_8);
        return file;
    }

    /**
     * Ends the head of a table with a column per phase, which the phase tables share: each phase's
     * title, then the separator row, the leading columns' part first.
     */
    private static void phaseColumns(StringBuilder md, PhasePlan plan, IntFunction<String> title, String leadingSeparator,
            String phaseSeparator) {
        for (int i = 0; i < plan.phases().size(); i++) {
            md.append(title.apply(i));
        }
        md.append('\n').append(leadingSeparator);
        plan.phases().forEach(phase -> md.append(phaseSeparator));
        md.append('\n');
    }

    /** One target's slices of one phase, in the sequence's order. */
    private static List<PhaseSlice> of(List<PhaseSlice> sequence, String target, int phaseIndex) {
        return sequence.stream().filter(slice -> slice.target().equals(target) && slice.phaseIndex() == phaseIndex).toList();
    }

    /** Median calls/s per target and phase, after settling and whole, and what the adaptive targets ran at the end. */
    static String figures(PhasePlan plan, List<PhaseSlice> sequence, Backend backend, double limit) {
        StringBuilder md = new StringBuilder("Median calls/s over the kept cycles, after settling (whole phase in brackets):\n\n| target |");
        phaseColumns(md, plan, i -> " " + (i + 1) + ": " + plan.phases().get(i).label(plan.viaProxy()) + " |", "|---|", "---:|");
        for (String target : PhaseGoals.targets(backend, plan)) {
            md.append("| ").append(target).append(" |");
            for (int i = 0; i < plan.phases().size(); i++) {
                List<PhaseSlice> kept = of(sequence, target, i).stream().filter(slice -> !slice.disturbed(limit) && slice.errors() == 0)
                        .toList();
                double settled = Interval.of(kept.stream().map(PhaseSlice::settledOpsPerSecond).toList()).median();
                double whole = Interval.of(kept.stream().map(PhaseSlice::wholeOpsPerSecond).toList()).median();
                md.append(kept.isEmpty() ? " – |" : String.format(Locale.ROOT, " %.1fk (%.1fk)", settled / 1000, whole / 1000));
                if (PhaseGoals.adaptive(backend).contains(target) && !kept.isEmpty()) {
                    md.append(" on ").append(mostCommon(kept.stream().map(PhaseSlice::strategy).toList()));
                }
                if (!kept.isEmpty()) {
                    md.append(" |");
                }
            }
            md.append('\n');
        }
        List<String> collecting = new ArrayList<>();
        for (PhaseSlice slice : sequence) {
            if (slice.gcShare() > GC_BOUND) {
                collecting.add(String.format(Locale.ROOT, "%s phase %d cycle %d (%.0f%%)", slice.target(), slice.phaseIndex() + 1,
                        slice.cycle(), slice.gcShare() * 100));
            }
        }
        md.append('\n').append(collecting.isEmpty()
                ? String.format(Locale.ROOT, "No phase spent more than %.0f%% of its time in garbage collection.%n", GC_BOUND * 100)
                : String.format(Locale.ROOT, "Phases that spent more than %.0f%% of their time in garbage collection (their figures"
                        + " are the heap's as much as the client's): %s.%n", GC_BOUND * 100, String.join(", ", collecting)));
        return md.toString();
    }

    /** The throughput goals of every phase, as verdict rows. */
    static String goalTable(PhasePlan plan, List<PhaseSlice> sequence, Backend backend, double limit, List<Verdicts.Row> collected) {
        StringBuilder md = new StringBuilder("| comparison | goal |");
        phaseColumns(md, plan, i -> " phase " + (i + 1) + " |", "|---|---|", "---|");
        List<Goal> goals = new ArrayList<>(PhaseGoals.settled(backend));
        int settledGoals = goals.size();
        goals.addAll(PhaseGoals.whole(backend));
        for (int g = 0; g < goals.size(); g++) {
            Goal goal = goals.get(g);
            boolean settled = g < settledGoals;
            md.append("| ").append(goal.label()).append(" | ");
            List<String> thresholds = plan.phases().stream().map(phase -> goal.goalText(phase.callers())).distinct().toList();
            md.append(String.join(" / ", thresholds)).append(" |");
            for (int i = 0; i < plan.phases().size(); i++) {
                int index = i;
                PhasePlan.Phase phase = plan.phases().get(i);
                List<Slice> phaseSlices = sequence.stream().filter(slice -> slice.phaseIndex() == index)
                        .map(slice -> slice.asSlice(settled)).toList();
                Verdicts.Row row = Verdicts.evaluate(goal, phase.workload(backend, plan.viaProxy()), phaseSlices, limit);
                collected.add(row);
                md.append(' ').append(VerdictReport.cell(row)).append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * The surge goal's table: per cycle what the target ran at the step, its slowest second against
     * the reference's median, the seconds short of the goal and its failed calls; then the verdict.
     */
    static String surgeTable(PhasePlan plan, SurgeGoal.Result surge, Duration window) {
        SurgeGoal goal = surge.goal();
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "Surge goal: from %.0f s after the step to %d callers, %s's"
                + " calls per window of %d ms at least %.2fx the median window of %s (fixed) over the same span of the same cycle,"
                + " and no failed call. A cycle either disturbed is left out of the ratio; failed calls count in every cycle.%n%n",
                goal.from().toMillis() / 1000.0, plan.phases().get(plan.step()).callers(), goal.target(), window.toMillis(),
                goal.minRatio(), goal.reference()));
        md.append("| cycle | ").append(goal.target()).append(" at the step | ").append(goal.reference())
                .append(" median | slowest window ÷ median | windows short | ").append(goal.reference())
                .append("'s own windows short (for reading) | failed calls |\n|---|---|---:|---:|---:|---:|---:|\n");
        for (SurgeGoal.Cycle cycle : surge.cycles()) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %d |%n", cycle.cycle(), cycle.strategyAtStep(),
                    cycle.kept() ? String.format(Locale.ROOT, "%.1fk", cycle.referenceMedian() / 1000) : "–",
                    cycle.kept() ? String.format(Locale.ROOT, "%.2f", cycle.worstRatio()) : "left out",
                    cycle.kept() ? cycle.windowsBelow() + " of " + cycle.windowsJudged() : "–",
                    cycle.kept() ? Integer.toString(cycle.referenceWindowsBelow()) : "–", cycle.failedCalls()));
        }
        md.append(String.format(Locale.ROOT, "%nThe reference's own windows short: its windows below %.2fx of its own median, how"
                + " often the machine alone makes the fixed strategy fall short; the verdict does not use them.%n", goal.minRatio()));
        md.append(String.format(Locale.ROOT, "%nSurge goal on %d kept cycles of %d, %d failed calls: **%s**%n",
                surge.cycles().stream().filter(SurgeGoal.Cycle::kept).count(), surge.cycles().size(), surge.failedCalls(),
                surge.verdict().word()));
        return md.toString();
    }

    /** Switches per phase and the time of the last one, per adaptive target, against the goals. */
    static String settling(PhasePlan plan, List<PhaseSlice> sequence, Backend backend, PhaseRun.Settings settings, double limit,
            List<String> verdicts) {
        StringBuilder md = new StringBuilder("Switches per cycle in each phase (goal: at most 1) and the latest last switch over the"
                + " cycles (goal: within the dwell and five windows of the target's own timings after the load change, the bound in"
                + " each row):\n\n");
        md.append("| adaptive target |");
        phaseColumns(md, plan, i -> " phase " + (i + 1) + " |", "|---|", "---|");
        List<String> targets = PhaseGoals.targets(backend, plan);
        for (String target : PhaseGoals.adaptive(backend).stream().filter(targets::contains).toList()) {
            Duration bound = settings.settleBound(target);
            md.append(String.format(Locale.ROOT, "| %s (bound %.2f s) |", target, bound.toMillis() / 1000.0));
            for (int i = 0; i < plan.phases().size(); i++) {
                List<PhaseSlice> phases = of(sequence, target, i).stream().sorted((a, b) -> Integer.compare(a.cycle(), b.cycle()))
                        .toList();
                if (phases.isEmpty()) {
                    md.append(" – |");
                    continue;
                }
                String counts = phases.stream().map(slice -> Integer.toString(slice.switches().size())).collect(Collectors.joining(","));
                Settled settled = Settled.of(phases, bound);
                boolean oneSwitch = settled.atMostOneSwitch();
                boolean inTime = settled.inTime();
                long latest = settled.latestMillis();
                verdicts.add(oneSwitch ? "met" : "missed");
                verdicts.add(inTime ? "met" : "missed");
                Map<String, Long> reasons = new TreeMap<>();
                phases.forEach(slice -> slice.switches().forEach(change -> reasons.merge(change.reason() + " → " + change.to(), 1L,
                        Long::sum)));
                md.append(String.format(Locale.ROOT, " switches per cycle %s (%s); last at %.2f s (%s)%s |", counts,
                        oneSwitch ? "**met**" : "**missed**", latest / 1000.0, inTime ? "**met**" : "**missed**",
                        reasons.isEmpty() ? "" : "; " + reasons.entrySet().stream().map(entry -> entry.getKey() + " ×" + entry.getValue())
                                .collect(Collectors.joining(", "))));
            }
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * How one adaptive target settled in one phase over the cycles: every cycle must keep to one
     * switch, and the latest switch of any cycle must come within the bound (a phase is a stable
     * load, so a later switch is flapping or a slow decision).
     * @param atMostOneSwitch whether no cycle switched twice or more in the phase
     * @param inTime whether every cycle's last switch came within the bound
     * @param latestMillis the latest last switch over the cycles, from the phase's start
     */
    record Settled(boolean atMostOneSwitch, boolean inTime, long latestMillis) {

        static Settled of(List<PhaseSlice> phases, Duration bound) {
            int most = phases.stream().mapToInt(slice -> slice.switches().size()).max().orElse(0);
            long latest = phases.stream().mapToLong(PhaseSlice::lastSwitchMillis).max().orElse(0);
            return new Settled(most <= 1, latest <= bound.toMillis(), latest);
        }
    }

    private static String mostCommon(List<String> values) {
        Map<String, Long> counts = new LinkedHashMap<>();
        values.forEach(value -> counts.merge(value, 1L, Long::sum));
        String best = values.get(0);
        for (Map.Entry<String, Long> entry : counts.entrySet()) {
            if (entry.getValue() > counts.get(best)) {
                best = entry.getKey();
            }
        }
        return best;
    }
}
