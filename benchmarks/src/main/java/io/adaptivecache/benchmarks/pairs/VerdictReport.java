package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import io.adaptivecache.benchmarks.load.Workload;

/**
 * A verdict run as {@code verdicts.md} and one PNG of small multiples per workload group: every
 * goal with its ratio, interval, kept cycles and verdict; the A/A controls; each target's
 * throughput and client CPU per call with intervals; what the rest of the machine did; and what
 * the adaptive targets ran.
 */
public final class VerdictReport {

    private VerdictReport() {
    }

    /**
     * Writes the report.
     * @param out the run's directory
     * @param set the goals
     * @param result the run
     * @param maxDisturbanceCores the disturbance limit the run used
     * @param facts the run's facts, by section
     * @return {@code verdicts.md}
     * @throws IOException if a file cannot be written
     */
    public static Path write(Path out, GoalSet set, PairedRun.Result result, double maxDisturbanceCores,
            Map<String, Map<String, String>> facts) throws IOException {
        List<Slice> slices = result.slices();
        List<Verdicts.Row> rows = Verdicts.evaluate(set, slices, maxDisturbanceCores);
        StringBuilder md = new StringBuilder("# Verdicts: goal set `" + set.name() + "`\n\n");
        md.append("Each cell: the median of per-cycle ratios, its 95% bootstrap interval in brackets, the cycles kept of those measured,"
                + " and the verdict: **met** when the whole interval is on the goal's side of the threshold, **missed** when it is wholly"
                + " on the other side, *undecided* otherwise. A cycle is dropped when, during one of its slices, processes other than"
                + " the benchmark's (and steal) used more than " + String.format(Locale.ROOT, "%.2f", maxDisturbanceCores)
                + " cores.\n\n");
        md.append(summary(rows)).append('\n');
        for (Map.Entry<Workload.Group, List<Verdicts.Row>> group : byGroup(rows).entrySet()) {
            md.append("## ").append(group.getKey().title()).append("\n\n");
            md.append(goalTable(group.getValue())).append('\n');
            md.append(hostLine(slices.stream().filter(slice -> slice.workload().group().equals(group.getKey())).toList(),
                    maxDisturbanceCores)).append("\n\n");
            md.append("![Ratios with their intervals: ").append(group.getKey().title()).append("](").append(chartName(group.getKey()))
                    .append(")\n\n");
            RatioCharts.write(out.resolve(chartName(group.getKey())), "Ratios with 95% intervals · " + group.getKey().title(),
                    panels(group.getValue()));
        }
        List<Verdicts.StalenessRow> staleness = Verdicts.staleness(set, slices, maxDisturbanceCores);
        if (!staleness.isEmpty()) {
            md.append("## Staleness under load\n\n");
            md.append("While a target with a local tier runs its slice, a second client without one (another application instance)"
                    + " writes a probe key every 5 ms and the local tier is read for it every 0.2 ms (the figures' resolution). A"
                    + " write's staleness is how long after it completed the local tier still served an older value. Per workload:"
                    + " the 99th percentile over every write of the kept slices, its 95% interval (resampling slices), the largest,"
                    + " and the verdict against the bound.\n\n");
            md.append(stalenessTable(staleness)).append('\n');
        }
        md.append("## Each target's figures\n\n");
        md.append("Median over the kept slices, with the 95% interval: calls per second, and the target JVM's CPU time per call.\n\n");
        md.append(figures(slices, maxDisturbanceCores)).append('\n');
        md.append("## The machine during the slices\n\n");
        md.append("Per workload, in cores (2.0 = both busy): CPU of processes other than the benchmark's (\"outside\"), steal, and"
                + " interrupt work (mostly the benchmark's own loopback traffic, not counted as outside).\n\n");
        md.append(host(slices, maxDisturbanceCores)).append('\n');
        String adaptive = adaptive(slices, result.warmUps());
        if (!adaptive.isEmpty()) {
            md.append("## What the adaptive targets ran\n\n").append(adaptive).append('\n');
        }
        md.append(factsSections(facts));
        Path file = out.resolve("verdicts.md");
        Files.writeString(file, md, StandardCharsets.UTF_8);
        return file;
    }

    /**
     * A run's facts as Markdown: one two-column table per section.
     * @param facts the facts, by section
     * @return the sections
     */
    public static String factsSections(Map<String, Map<String, String>> facts) {
        StringBuilder md = new StringBuilder();
        for (Map.Entry<String, Map<String, String>> section : facts.entrySet()) {
            md.append("## ").append(section.getKey()).append("\n\n| | |\n|---|---|\n");
            section.getValue().forEach((name, value) -> md.append("| ").append(name).append(" | ").append(value).append(" |\n"));
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * The line above a goal table: how many goal cells are met, missed and undecided, and how many
     * A/A controls hold.
     * @param rows the rows of the table
     * @return the line
     */
    public static String summary(List<? extends RatioRow> rows) {
        Map<Verdict, Long> counts = new TreeMap<>();
        rows.stream().filter(row -> !row.control() && row.verdict() != Verdict.NONE)
                .forEach(row -> counts.merge(row.verdict(), 1L, Long::sum));
        long controls = rows.stream().filter(RatioRow::control).count();
        long holding = rows.stream().filter(row -> row.control() && row.controlHolds()).count();
        return String.format(Locale.ROOT, "Goal cells: %d met, %d missed, %d undecided. A/A controls: %d of %d hold (interval contains"
                + " 1.0).%n", counts.getOrDefault(Verdict.MET, 0L), counts.getOrDefault(Verdict.MISSED, 0L),
                counts.getOrDefault(Verdict.UNDECIDED, 0L), holding, controls);
    }

    static String goalTable(List<Verdicts.Row> rows) {
        List<Integer> threads = rows.stream().map(row -> row.workload().threads()).distinct().sorted().toList();
        StringBuilder md = new StringBuilder("| comparison | goal |");
        threads.forEach(count -> md.append(' ').append(count).append(count == 1 ? " caller |" : " callers |"));
        md.append("\n|---|---|");
        threads.forEach(count -> md.append("---|"));
        md.append('\n');
        Map<Goal, Map<Integer, Verdicts.Row>> byGoal = new LinkedHashMap<>();
        rows.forEach(row -> byGoal.computeIfAbsent(row.goal(), any -> new TreeMap<>()).put(row.workload().threads(), row));
        for (Map.Entry<Goal, Map<Integer, Verdicts.Row>> entry : byGoal.entrySet()) {
            Goal goal = entry.getKey();
            md.append("| ").append(goal.label()).append(goal.measure() == Goal.Measure.CPU_PER_CALL ? " (lower is better)" : "")
                    .append(" | ").append(goalText(goal, threads)).append(" |");
            for (int count : threads) {
                Verdicts.Row row = entry.getValue().get(count);
                md.append(' ').append(row == null ? "" : cell(row)).append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    static String stalenessTable(List<Verdicts.StalenessRow> rows) {
        StringBuilder md = new StringBuilder("| target | workload | writes (slices kept/measured) | p99 [95%] | max | goal | verdict |\n"
                + "|---|---|---:|---:|---:|---|---|\n");
        for (Verdicts.StalenessRow row : rows) {
            String verdict = row.verdict().word();
            if (row.verdict() == Verdict.MET || row.verdict() == Verdict.MISSED) {
                verdict = "**" + verdict + "**";
            }
            md.append(String.format(Locale.ROOT, "| %s | %s · %d %s | %d (%d/%d) | %s | %s | %s | %s |%n", row.goal().target(),
                    row.workload().group().title(), row.workload().threads(), row.workload().threads() == 1 ? "caller" : "callers",
                    row.writes(), row.p99Millis().pairs(), row.slices(),
                    row.p99Text(), Double.isNaN(row.maxMillis()) ? "–" : String.format(Locale.ROOT, "%.2f ms", row.maxMillis()),
                    row.goal().goalText(row.workload().threads()), verdict));
        }
        return md.toString();
    }

    static String cell(Verdicts.Row row) {
        return cell(row, row.goal().bestOf().size() > 1 ? " (÷ " + row.denominator() + ")" : "");
    }

    /**
     * A goal table's cell: for example {@code 1.12x [1.08, 1.15] · 20/20 · **met**}, the verdict in
     * bold where it is decided and in italics where it is not.
     * @param row the row
     * @param against what follows the interval, such as the denominator a ratio was taken against; empty for none
     * @return the cell
     */
    public static String cell(RatioRow row, String against) {
        String kept = row.interval().pairs() + "/" + row.cycles();
        String status = row.status();
        if (row.verdict() == Verdict.MET || row.verdict() == Verdict.MISSED) {
            status = "**" + status + "**";
        }
        else if (row.verdict() == Verdict.UNDECIDED) {
            status = "*" + status + "*";
        }
        return row.interval().format() + against + " · " + kept + (status.equals("–") ? "" : " · " + status);
    }

    /** For example {@code ≥ 0.95 at 1, 8; ≥ 1.4 at 50, 200}. */
    static String goalText(Goal goal, List<Integer> threads) {
        return goalText(goal.control(), goal::goalText, threads);
    }

    /**
     * A goal's thresholds as text, the counts that share one named together: for example
     * {@code ≥ 0.95 at 1, 8; ≥ 1.4 at 50, 200}, or {@code (for information)}.
     * @param control whether the goal is an A/A control (its text is the same at every count)
     * @param textAt the goal's text at a count, empty where it has none
     * @param counts the caller or connection counts
     * @return the text
     */
    public static String goalText(boolean control, IntFunction<String> textAt, List<Integer> counts) {
        if (control) {
            return textAt.apply(0);
        }
        Map<String, List<Integer>> byText = new LinkedHashMap<>();
        for (int count : counts) {
            String text = textAt.apply(count);
            if (!text.isEmpty()) {
                byText.computeIfAbsent(text, any -> new ArrayList<>()).add(count);
            }
        }
        if (byText.isEmpty()) {
            return "(for information)";
        }
        return byText.entrySet().stream().map(entry -> entry.getKey() + (entry.getValue().size() == counts.size() ? ""
                : " at " + entry.getValue().stream().map(String::valueOf).collect(Collectors.joining(", "))))
                .collect(Collectors.joining("; "));
    }

    static List<RatioPanel> panels(List<Verdicts.Row> rows) {
        Map<String, List<RatioPoint>> points = new LinkedHashMap<>();
        Map<String, Map<Integer, Double>> thresholds = new LinkedHashMap<>();
        for (Verdicts.Row row : rows) {
            Goal goal = row.goal();
            points.computeIfAbsent(goal.panel(), any -> new ArrayList<>()).add(new RatioPoint(goal.control()
                    ? goal.numerator() + " ÷ " + goal.bestOf().get(0) : goal.numerator(), row.workload().threads(), row.interval(),
                    row.verdict()));
            Map<Integer, Double> panelThresholds = thresholds.computeIfAbsent(goal.panel(), any -> new TreeMap<>());
            double threshold = goal.threshold(row.workload().threads());
            if (!Double.isNaN(threshold)) {
                panelThresholds.putIfAbsent(row.workload().threads(), threshold);
            }
        }
        List<RatioPanel> panels = new ArrayList<>();
        points.forEach((title, list) -> panels.add(new RatioPanel(title, list, thresholds.get(title))));
        return panels;
    }

    static String figures(List<Slice> slices, double maxDisturbanceCores) {
        StringBuilder md = new StringBuilder();
        Map<Workload, List<Slice>> byWorkload = byWorkload(slices);
        Set<Workload.Group> groups = new LinkedHashSet<>();
        byWorkload.keySet().forEach(workload -> groups.add(workload.group()));
        for (Workload.Group group : groups) {
            List<Workload> workloads = byWorkload.keySet().stream().filter(workload -> workload.group().equals(group)).toList();
            md.append("**").append(group.title()).append("**\n\n| target |");
            workloads.forEach(workload -> md.append(' ').append(workload.threads()).append(" callers: calls/s · µs CPU/call |"));
            md.append("\n|---|");
            workloads.forEach(workload -> md.append("---|"));
            md.append('\n');
            Set<String> targets = new LinkedHashSet<>();
            workloads.forEach(workload -> byWorkload.get(workload).forEach(slice -> targets.add(slice.target())));
            for (String target : targets) {
                md.append("| `").append(target).append("` |");
                for (Workload workload : workloads) {
                    Interval throughput = Verdicts.figure(target, byWorkload.get(workload), maxDisturbanceCores, false);
                    Interval cpu = Verdicts.figure(target, byWorkload.get(workload), maxDisturbanceCores, true);
                    md.append(throughput.pairs() == 0 ? " – |" : String.format(Locale.ROOT, " %,.0f [%,.0f, %,.0f] · %.1f [%.1f, %.1f] |",
                            throughput.median(), throughput.low(), throughput.high(), cpu.median(), cpu.low(), cpu.high()));
                }
                md.append('\n');
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** The host's figures beside a group's table. */
    static String hostLine(List<Slice> slices, double maxDisturbanceCores) {
        return String.format(Locale.ROOT, "Host during these slices: other processes %.2f cores (median; max %.2f), steal %.2f"
                + " (max %.2f); %d of %d slices disturbed (over %.2f cores), their cycles dropped.",
                median(slices.stream().map(Slice::outsideCores).toList()), slices.stream().mapToDouble(Slice::outsideCores).max().orElse(0),
                median(slices.stream().map(Slice::stealCores).toList()), slices.stream().mapToDouble(Slice::stealCores).max().orElse(0),
                slices.stream().filter(slice -> slice.disturbed(maxDisturbanceCores)).count(), slices.size(), maxDisturbanceCores);
    }

    static String host(List<Slice> slices, double maxDisturbanceCores) {
        StringBuilder md = new StringBuilder("| workload | slices | disturbed | outside, median · max | steal, median · max |"
                + " interrupts, median | benchmark's own, median |\n|---|---:|---:|---|---|---|---|\n");
        for (Map.Entry<Workload, List<Slice>> entry : byWorkload(slices).entrySet()) {
            List<Slice> list = entry.getValue();
            Workload workload = entry.getKey();
            md.append(String.format(Locale.ROOT, "| %s · %s | %d | %d | %.2f · %.2f | %.2f · %.2f | %.2f | %.2f |%n",
                    workload.group().title(), callers(workload.threads()), list.size(),
                    list.stream().filter(slice -> slice.disturbed(maxDisturbanceCores)).count(),
                    median(list.stream().map(Slice::outsideCores).toList()), list.stream().mapToDouble(Slice::outsideCores).max().orElse(0),
                    median(list.stream().map(Slice::stealCores).toList()), list.stream().mapToDouble(Slice::stealCores).max().orElse(0),
                    median(list.stream().map(Slice::irqCores).toList()), median(list.stream().map(Slice::oursCores).toList())));
        }
        return md.toString();
    }

    static String adaptive(List<Slice> slices, Map<Workload, Map<String, String>> warmUps) {
        StringBuilder md = new StringBuilder();
        for (Map.Entry<Workload, List<Slice>> entry : byWorkload(slices).entrySet()) {
            Map<String, List<Slice>> byTarget = new LinkedHashMap<>();
            entry.getValue().stream().filter(slice -> !slice.strategy().equals("-"))
                    .forEach(slice -> byTarget.computeIfAbsent(slice.target(), any -> new ArrayList<>()).add(slice));
            for (Map.Entry<String, List<Slice>> target : byTarget.entrySet()) {
                List<Slice> list = target.getValue();
                Map<String, Long> strategies = list.stream().collect(Collectors.groupingBy(Slice::strategy, TreeMap::new,
                        Collectors.counting()));
                int switches = list.get(list.size() - 1).switches() - list.get(0).switches();
                String warmed = warmUps.getOrDefault(entry.getKey(), Map.of()).getOrDefault(target.getKey(), "?");
                md.append(String.format(Locale.ROOT, "- %s · %s, `%s`: settled on %s before the slices; at the slices' ends %s;"
                        + " %d switches during the slices%n", entry.getKey().group().title(), callers(entry.getKey().threads()), target.getKey(),
                        warmed, strategies.entrySet().stream().map(s -> s.getKey() + " ×" + s.getValue())
                                .collect(Collectors.joining(", ")), switches));
            }
        }
        return md.toString();
    }

    private static Map<Workload.Group, List<Verdicts.Row>> byGroup(List<Verdicts.Row> rows) {
        Map<Workload.Group, List<Verdicts.Row>> groups = new LinkedHashMap<>();
        rows.forEach(row -> groups.computeIfAbsent(row.workload().group(), any -> new ArrayList<>()).add(row));
        return groups;
    }

    private static Map<Workload, List<Slice>> byWorkload(List<Slice> slices) {
        Map<Workload, List<Slice>> map = new LinkedHashMap<>();
        slices.forEach(slice -> map.computeIfAbsent(slice.workload(), any -> new ArrayList<>()).add(slice));
        return map;
    }

    private static double median(List<Double> values) {
        return values.isEmpty() ? 0 : Interval.median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static String callers(int threads) {
        return threads + (threads == 1 ? " caller" : " callers");
    }

    static String chartName(Workload.Group group) {
        return "verdicts-" + group.slug() + ".png";
    }
}
