package io.adaptivecache.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.benchmarks.targets.BenchTarget;

/**
 * The run as Markdown: {@code results.md} (how it was run, the ratios the project claims, how
 * the adaptive mode settled, and per workload group the throughput and p99 tables beside their
 * charts) and {@code details.md} (every figure of every target and thread count).
 */
public final class MarkdownReport {

    private final ResultSet results;
    private final List<BenchTarget> targets;
    private final Map<String, Map<String, String>> facts;

    /**
     * Creates a report.
     * @param results the run
     * @param targets the catalog, for descriptions
     * @param facts sections of label/value facts (command, settings, machine, versions), in display order
     */
    public MarkdownReport(ResultSet results, List<BenchTarget> targets, Map<String, Map<String, String>> facts) {
        this.results = results;
        this.targets = targets;
        this.facts = facts;
    }

    /**
     * Writes {@code results.md} and {@code details.md}.
     * @param directory where to write
     * @param charts the charts of each group, as {@link Charts#write} returned them
     * @return the path of {@code results.md}
     * @throws IOException if a file cannot be written
     */
    public Path write(Path directory, Map<Workload.Group, List<Path>> charts) throws IOException {
        Path summary = directory.resolve("results.md");
        Files.writeString(summary, summary(directory, charts), StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("details.md"), details(), StandardCharsets.UTF_8);
        return summary;
    }

    String summary(Path directory, Map<Workload.Group, List<Path>> charts) {
        StringBuilder out = new StringBuilder();
        out.append("# adaptive-cache benchmark\n\n");
        out.append("Closed-loop callers, 80% get / 20% set over ").append(String.format(Locale.ROOT, "%,d",
                io.adaptivecache.benchmarks.load.ClosedLoopRunner.KEYS)).append(" keys, every value the same size. Targets are ")
                .append("interleaved within each round and every figure is the median over rounds; a ratio is taken within each ")
                .append("round (both sides saw the same machine) and its median reported, with the rounds' values beside it. ")
                .append("Nothing here is asserted: on a shared 2-core machine one comparison moves by about ±20%.\n\n");
        this.facts.forEach((section, values) -> {
            out.append("## ").append(section).append("\n\n| | |\n|---|---|\n");
            values.forEach((label, value) -> out.append("| ").append(label).append(" | ").append(cell(value)).append(" |\n"));
            out.append('\n');
        });
        out.append("## Targets\n\n| id | server | what |\n|---|---|---|\n");
        Set<String> seen = new LinkedHashSet<>();
        for (BenchTarget target : this.targets) {
            if (seen.add(target.backend() + target.id())) {
                out.append("| `").append(target.id()).append("` | ").append(target.backend().label()).append(" | ")
                        .append(target.description()).append(" |\n");
            }
        }
        out.append('\n');
        ratios(out);
        adaptive(out);
        out.append("## Throughput and p99 by workload\n\n");
        out.append("Throughput is the median over rounds (± half the range between the slowest and fastest round, as a share ")
                .append("of the median). On Redis, *cmds/write* is how many commands our template's connections sent per socket ")
                .append("write over the measured window (more than 1 when the writes of concurrent callers were coalesced; ")
                .append("median over rounds; – for a client that does not count them). Every other figure of every cell is in ")
                .append("[details.md](details.md).\n\n");
        for (Workload.Group group : this.results.groups()) {
            out.append("### ").append(group.title()).append("\n\n");
            for (Path chart : charts.getOrDefault(group, List.of())) {
                if (Files.exists(chart)) {
                    out.append("![").append(chart.getFileName()).append("](").append(directory.relativize(chart)).append(")\n");
                }
            }
            out.append('\n');
            out.append(table(group)).append('\n');
        }
        return out.toString();
    }

    /**
     * A group's table: per target, throughput at each caller count, then, where any client of the group counts its
     * Redis writes, commands per socket write at each, then p99 at each.
     */
    String table(Workload.Group group) {
        List<Integer> threads = this.results.threads(group);
        boolean counted = this.results.cells().stream()
                .anyMatch(cell -> cell.workload().group().equals(group) && !Double.isNaN(cell.commandsPerWrite()));
        int blocks = counted ? 3 : 2;
        StringBuilder out = new StringBuilder("| target | ")
                .append(threads.stream().map(count -> count + " thr ops/s").collect(Collectors.joining(" | ")));
        if (counted) {
            out.append(" | ").append(threads.stream().map(count -> count + " thr cmds/write").collect(Collectors.joining(" | ")));
        }
        out.append(" | ").append(threads.stream().map(count -> count + " thr p99").collect(Collectors.joining(" | ")))
                .append(" |\n|---|").append("---:|".repeat(threads.size() * blocks)).append('\n');
        for (String target : this.results.targets(group)) {
            out.append("| `").append(target).append("` |");
            List<String> perWrite = new ArrayList<>();
            List<String> latencies = new ArrayList<>();
            for (int count : threads) {
                Optional<CellSummary> cell = this.results.summary(target, workload(group, count));
                out.append(' ').append(cell.map(MarkdownReport::throughput).orElse("–")).append(" |");
                perWrite.add(cell.map(summary -> perWrite(summary.commandsPerWrite())).orElse("–"));
                latencies.add(cell.map(summary -> millis(summary.p99Micros())).orElse("–"));
            }
            if (counted) {
                perWrite.forEach(ratio -> out.append(' ').append(ratio).append(" |"));
            }
            latencies.forEach(latency -> out.append(' ').append(latency).append(" |"));
            out.append('\n');
        }
        return out.toString();
    }

    private void ratios(StringBuilder out) {
        String section = null;
        for (Comparison comparison : Comparison.ALL) {
            List<Workload.Group> groups = this.results.groups().stream().filter(group -> group.backend() == comparison.backend()).toList();
            if (groups.isEmpty()) {
                continue;
            }
            if (!comparison.section().equals(section)) {
                section = comparison.section();
                out.append("## ").append(section).append("\n\n");
            }
            StringBuilder table = new StringBuilder();
            boolean any = false;
            Set<Integer> threadCounts = new java.util.TreeSet<>();
            groups.forEach(group -> threadCounts.addAll(this.results.threads(group)));
            table.append("**").append(comparison.backend().label()).append(": `").append(comparison.label()).append("`** (goal: ")
                    .append(comparison.goal()).append(")\n\n| network · value | ")
                    .append(threadCounts.stream().map(count -> count + " thr").collect(Collectors.joining(" | "))).append(" |\n|---|")
                    .append("---:|".repeat(threadCounts.size())).append('\n');
            for (Workload.Group group : groups) {
                table.append("| ").append(group.network().label()).append(" · ").append(Workload.sizeLabel(group.valueBytes())).append(" |");
                for (int count : threadCounts) {
                    Optional<ResultSet.Ratio> ratio = this.results.ratio(comparison, workload(group, count));
                    any |= ratio.isPresent();
                    table.append(' ').append(ratio.map(MarkdownReport::ratio).orElse("–")).append(" |");
                }
                table.append('\n');
            }
            if (any) {
                out.append(table).append('\n');
            }
        }
    }

    private void adaptive(StringBuilder out) {
        List<CellResult> adaptive = this.results.cells().stream().filter(cell -> cell.settling().finalStrategy() != null).toList();
        if (adaptive.isEmpty()) {
            return;
        }
        out.append("## How the adaptive mode settled\n\n")
                .append("Each adaptive cell starts a fresh template on MULTI(N = cores) with its switcher on short timings; after ")
                .append("the warm-up the harness waits until the policy calls two windows in a row steady (or a limit passes), then ")
                .append("measures. Per round: the strategy it ran while measured, its switches, and when the last switch ")
                .append("happened after the load started.\n\n")
                .append("| workload | threads | strategy while measured | switches | last switch after | settled |\n")
                .append("|---|---:|---|---|---|---|\n");
        for (Workload.Group group : this.results.groups()) {
            for (int count : this.results.threads(group)) {
                Workload workload = workload(group, count);
                List<CellResult> rounds = adaptive.stream().filter(cell -> cell.workload().equals(workload)).toList();
                if (rounds.isEmpty()) {
                    continue;
                }
                out.append("| ").append(group.title()).append(" | ").append(count).append(" | ")
                        .append(rounds.stream().map(cell -> cell.settling().finalStrategy()).collect(Collectors.joining(", ")))
                        .append(" | ").append(rounds.stream().map(cell -> Integer.toString(cell.settling().switches()))
                                .collect(Collectors.joining(", ")))
                        .append(" | ").append(rounds.stream().map(cell -> String.format(Locale.ROOT, "%.1f s",
                                cell.settling().lastSwitchAfter().toMillis() / 1000.0)).collect(Collectors.joining(", ")))
                        .append(" | ").append(rounds.stream().map(cell -> cell.settling().settled() ? "yes" : "no")
                                .collect(Collectors.joining(", ")))
                        .append(" |\n");
            }
        }
        out.append('\n');
    }

    String details() {
        StringBuilder out = new StringBuilder("# Every cell\n\nMedians over rounds; errors summed over rounds; CPU is the client ")
                .append("process's (servers and the delaying proxy run as other processes), in cores busy and in microseconds per ")
                .append("call; cmds/write, commands per socket write of our Redis templates' connections over the measured window. ")
                .append("Raw per-round figures: `cells.csv`.\n\n");
        for (Workload.Group group : this.results.groups()) {
            out.append("## ").append(group.title()).append("\n\n| target | threads | ops/s | range | p50 | p99 | p99.9 | errors | ")
                    .append("CPU cores | CPU µs/call | cmds/write |\n|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
            for (String target : this.results.targets(group)) {
                for (int count : this.results.threads(group)) {
                    Optional<CellSummary> found = this.results.summary(target, workload(group, count));
                    if (found.isEmpty()) {
                        continue;
                    }
                    CellSummary cell = found.get();
                    out.append(String.format(Locale.ROOT, "| `%s` | %d | %,.0f | %,.0f–%,.0f | %s | %s | %s | %d%s | %.2f | %.1f | %s |%n",
                            target, count, cell.opsPerSecond(), cell.minOpsPerSecond(), cell.maxOpsPerSecond(),
                            millis(cell.p50Micros()), millis(cell.p99Micros()), millis(cell.p999Micros()), cell.errors(),
                            cell.firstError() == null ? "" : " (" + cell(shorten(cell.firstError())) + ")", cell.cpuCores(),
                            cell.cpuMicrosPerOperation(), perWrite(cell.commandsPerWrite())));
                }
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static Workload workload(Workload.Group group, int threads) {
        return new Workload(group.backend(), group.network(), group.valueBytes(), threads, group.mix());
    }

    static String throughput(CellSummary cell) {
        double median = cell.opsPerSecond();
        String value = median >= 1000 ? String.format(Locale.ROOT, "%.1fk", median / 1000) : String.format(Locale.ROOT, "%.0f", median);
        if (cell.rounds().size() < 2 || median <= 0) {
            return value;
        }
        double spread = (cell.maxOpsPerSecond() - cell.minOpsPerSecond()) / 2 / median * 100;
        return value + String.format(Locale.ROOT, " ±%.0f%%", spread) + (cell.errors() > 0 ? " (" + cell.errors() + " err)" : "");
    }

    /** Commands per socket write, or – for a client that does not count them. */
    static String perWrite(double commandsPerWrite) {
        return Double.isNaN(commandsPerWrite) ? "–" : String.format(Locale.ROOT, "%.2f", commandsPerWrite);
    }

    static String millis(double micros) {
        return micros >= 10_000 ? String.format(Locale.ROOT, "%.0f ms", micros / 1000) : String.format(Locale.ROOT, "%.2f ms", micros / 1000);
    }

    static String ratio(ResultSet.Ratio ratio) {
        String median = String.format(Locale.ROOT, "%.2fx", ratio.median());
        if (ratio.rounds().size() < 2) {
            return median;
        }
        return median + " (" + ratio.rounds().stream().map(value -> String.format(Locale.ROOT, "%.2f", value))
                .collect(Collectors.joining(", ")) + ")";
    }

    private static String shorten(String text) {
        return text.length() > 120 ? text.substring(0, 117) + "..." : text;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
