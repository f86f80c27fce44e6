package io.adaptivecache.benchmarks.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Writes what check runs found: {@code near-check.md} (a table per figure, the worst violation and
 * the first ones of each backend, the setup) and {@code near-check.csv} (one row per backend).
 */
public final class CheckReport {

    private CheckReport() {
    }

    /**
     * Writes the report.
     * @param out the directory (created if needed)
     * @param outcomes one per backend
     * @param command the command line that ran it
     * @param started when the run started
     * @return the Markdown file
     * @throws IOException if it cannot be written
     */
    public static Path write(Path out, List<CheckRun.Outcome> outcomes, String command, Instant started) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("near-check.csv"), csv(outcomes), StandardCharsets.UTF_8);
        Path markdown = out.resolve("near-check.md");
        Files.writeString(markdown, markdown(outcomes, command, started), StandardCharsets.UTF_8);
        return markdown;
    }

    static String csv(List<CheckRun.Outcome> outcomes) {
        StringBuilder csv = new StringBuilder("backend,seed,reads_checked,failed_reads,writes,violations,bound_ms,stale_reads,"
                + "stale_p50_ms,stale_p99_ms,stale_max_ms,seconds,segments");
        for (FaultDriver.Fault fault : FaultDriver.Fault.values()) {
            csv.append(",faults_").append(fault.name().toLowerCase(Locale.ROOT));
        }
        csv.append('\n');
        for (CheckRun.Outcome outcome : outcomes) {
            HistoryCheck.Result result = outcome.result();
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%d,%d", outcome.settings().backend().label(),
                    outcome.settings().seed(), result.reads(), result.failedReads(), outcome.writes(), result.violations(),
                    outcome.bound().toMillis(), result.staleReads(), result.staleMillis(50), result.staleMillis(99), maxMillis(result),
                    outcome.elapsed().toSeconds(), outcome.segments()));
            for (FaultDriver.Fault fault : FaultDriver.Fault.values()) {
                csv.append(',').append(outcome.faults().getOrDefault(fault, 0));
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    static String markdown(List<CheckRun.Outcome> outcomes, String command, Instant started) {
        StringBuilder md = new StringBuilder("# Near-cache history check\n\n");
        md.append("Several near-cache instances (a template and, on Redis, an invalidation source each, as separate JVMs would"
                + " have) and plain writers that do not track ran a seeded random mix of reads and writes on 8 keys of one"
                + " server while faults were injected; every operation was recorded with its start, end and value, and every"
                + " read checked: it must return a value that was current at some moment within [start - bound, end], the"
                + " bound being the near cache's staleness bound. See `io.adaptivecache.benchmarks.check` for the rules.\n\n");
        md.append("- Command: `").append(command).append("`\n");
        md.append("- Started: ").append(started).append('\n');
        outcomes.stream().findFirst().ifPresent(first -> md.append("- Seed: ").append(first.settings().seed()).append('\n'));
        outcomes.stream().findFirst().ifPresent(first -> md.append(String.format(Locale.ROOT,
                "- Targets: at least %,d checked reads and %d faults of each kind, at least %d s, at most %d s%n",
                first.settings().minReads(), first.settings().faultsEach(), first.settings().duration().toSeconds(),
                first.settings().limit().toSeconds())));
        md.append('\n');
        row(md, "", outcomes, outcome -> outcome.settings().backend().label());
        row(md, "---", outcomes, outcome -> "---:");
        row(md, "Violations", outcomes, outcome -> String.format(Locale.ROOT, "**%,d**", outcome.result().violations()));
        row(md, "Reads checked", outcomes, outcome -> String.format(Locale.ROOT, "%,d", outcome.result().reads()));
        row(md, "Reads failed (during faults; not checked)", outcomes,
                outcome -> String.format(Locale.ROOT, "%,d", outcome.result().failedReads()));
        row(md, "Writes recorded", outcomes, outcome -> String.format(Locale.ROOT, "%,d", outcome.writes()));
        row(md, "Bound", outcomes, outcome -> outcome.bound().toMillis() + " ms");
        row(md, "Stale reads (a newer write had completed before the read began)", outcomes,
                outcome -> String.format(Locale.ROOT, "%,d", outcome.result().staleReads()));
        row(md, "Staleness of those: p50 / p99 / max", outcomes, outcome -> String.format(Locale.ROOT, "%.2f / %.2f / %.2f ms",
                outcome.result().staleMillis(50), outcome.result().staleMillis(99), maxMillis(outcome.result())));
        for (FaultDriver.Fault fault : FaultDriver.Fault.values()) {
            row(md, "Faults: " + fault.name().toLowerCase(Locale.ROOT).replace('_', ' '), outcomes,
                    outcome -> Integer.toString(outcome.faults().getOrDefault(fault, 0)));
        }
        row(md, "Duration (segments checked apart)", outcomes, outcome -> String.format(Locale.ROOT, "%d s (%d)",
                outcome.elapsed().toSeconds(), outcome.segments()));
        row(md, "Targets", outcomes, outcome -> outcome.targetsMet() ? "met" : "not met");
        for (CheckRun.Outcome outcome : outcomes) {
            md.append("\n## ").append(outcome.settings().backend().label()).append("\n\n").append(outcome.setup()).append(".\n\n");
            HistoryCheck.Result result = outcome.result();
            if (result.worst() == null) {
                md.append("No violation.\n");
                continue;
            }
            md.append("Worst violation: ").append(result.worst()).append("\n\nFirst violations, one per stale copy:\n\n");
            result.examples().forEach(violation -> md.append("- ").append(violation).append('\n'));
        }
        return md.toString();
    }

    private static void row(StringBuilder md, String label, List<CheckRun.Outcome> outcomes, Function<CheckRun.Outcome, String> cell) {
        List<String> cells = new ArrayList<>();
        cells.add(label);
        outcomes.forEach(outcome -> cells.add(cell.apply(outcome)));
        md.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static double maxMillis(HistoryCheck.Result result) {
        return result.staleness().getTotalCount() == 0 ? 0 : result.staleness().getMaxValue() / 1e6;
    }
}
