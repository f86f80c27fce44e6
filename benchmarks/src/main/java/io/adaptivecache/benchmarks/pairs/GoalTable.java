package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Workload;

/**
 * Prints a goal set's verdict table from the {@code slices.csv} of one or more verdict runs:
 * for each goal and workload, the median ratio, its 95% interval, the cycles kept and the verdict.
 * With {@code --out DIR} it writes the whole report ({@code verdicts.md} and its charts) there
 * instead, reading {@code warm-ups.csv} beside the first file when present.
 *
 * <pre>{@code
 * java -cp benchmarks/target/adaptive-cache-benchmarks.jar io.adaptivecache.benchmarks.pairs.GoalTable \
 *     --goals redis [--max-outside 10%] [--out DIR] run/slices.csv...
 * }</pre>
 */
public final class GoalTable {

    private GoalTable() {
    }

    /**
     * Prints the table as Markdown.
     * @param args {@code --goals NAME[,NAME]}, optionally {@code --max-outside SHARE}, then the files
     * @throws IOException if a file cannot be read
     */
    public static void main(String[] args) throws IOException {
        List<String> names = List.of("redis", "memcached");
        double maxOutside = 0.10;
        List<Slice> slices = new ArrayList<>();
        Path out = null;
        Path first = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--goals" -> names = List.of(args[++i].split(","));
                case "--max-outside" -> {
                    String share = args[++i];
                    maxOutside = share.endsWith("%") ? Double.parseDouble(share.substring(0, share.length() - 1)) / 100
                            : Double.parseDouble(share);
                }
                default -> {
                    first = first == null ? Path.of(args[i]) : first;
                    slices.addAll(SliceLog.read(Path.of(args[i])));
                }
            }
        }
        double maxDisturbanceCores = maxOutside * Runtime.getRuntime().availableProcessors();
        if (out != null) {
            System.setProperty("java.awt.headless", "true");
            GoalSet set = names.size() == 1 ? GoalSet.named(names.get(0)) : new GoalSet(String.join("+", names),
                    names.stream().flatMap(name -> GoalSet.named(name).goals().stream()).toList(), GoalSet.named(names.get(0)).mix(),
                    names.stream().flatMap(name -> GoalSet.named(name).staleness().stream()).toList());
            Path directory = first == null ? null : first.toAbsolutePath().getParent();
            Map<Workload, Map<String, String>> warmUps = directory == null ? Map.of() : WarmUps.read(directory.resolve(WarmUps.FILE));
            Map<String, String> run = new LinkedHashMap<>();
            run.put("Recomputed", "by GoalTable from " + (first == null ? "no file" : first.getFileName()) + String.format(
                    java.util.Locale.ROOT, ", cycles dropped above %.0f%% of the machine (%.2f cores)", maxOutside * 100,
                    maxDisturbanceCores));
            java.nio.file.Files.createDirectories(out);
            System.out.println(VerdictReport.write(out, set, new PairedRun.Result(slices, warmUps, java.time.Instant.EPOCH,
                    java.time.Instant.EPOCH), maxDisturbanceCores, Map.of("Recomputed", run)));
            return;
        }
        for (String name : names) {
            System.out.print(render(GoalSet.named(name), slices, maxDisturbanceCores));
        }
    }

    /**
     * The tables of a goal set, one per workload group, with the summary line first.
     * @param set the goals
     * @param slices the slices
     * @param maxDisturbanceCores outside CPU plus steal above which a slice is dropped
     * @return Markdown
     */
    static String render(GoalSet set, List<Slice> slices, double maxDisturbanceCores) {
        List<Verdicts.Row> rows = Verdicts.evaluate(set, slices, maxDisturbanceCores);
        StringBuilder md = new StringBuilder(VerdictReport.summary(rows)).append('\n');
        Map<Workload.Group, List<Verdicts.Row>> groups = new LinkedHashMap<>();
        rows.forEach(row -> groups.computeIfAbsent(row.workload().group(), any -> new ArrayList<>()).add(row));
        groups.forEach((group, list) -> md.append("### ").append(group.title()).append("\n\n").append(VerdictReport.goalTable(list))
                .append('\n'));
        List<Verdicts.StalenessRow> staleness = Verdicts.staleness(set, slices, maxDisturbanceCores);
        if (!staleness.isEmpty()) {
            md.append("### Staleness under load\n\n").append(VerdictReport.stalenessTable(staleness)).append('\n');
        }
        return md.toString();
    }
}
