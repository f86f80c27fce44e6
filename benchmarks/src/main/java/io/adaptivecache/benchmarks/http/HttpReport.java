package io.adaptivecache.benchmarks.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.adaptivecache.benchmarks.http.app.Item;
import io.adaptivecache.benchmarks.pairs.GoalSet;
import io.adaptivecache.benchmarks.pairs.Interval;
import io.adaptivecache.benchmarks.pairs.RatioCharts;
import io.adaptivecache.benchmarks.pairs.RatioPanel;
import io.adaptivecache.benchmarks.pairs.RatioPoint;
import io.adaptivecache.benchmarks.pairs.VerdictReport;
import org.apache.catalina.util.ServerInfo;
import org.springframework.boot.SpringBootVersion;

/**
 * An end-to-end run as {@code e2e.md} and {@code e2e-ratios.png}: each comparison's ratio of
 * requests per second and of p99 latency per connection count, with its interval, kept cycles
 * and verdict; each application's own figures; the warm-ups; the machine; what each application
 * runs; the run's facts.
 */
final class HttpReport {

    /** The report's file name. */
    static final String FILE = "e2e.md";

    /** The chart's file name. */
    static final String CHART = "e2e-ratios.png";

    /** The chart's title. */
    static final String CHART_TITLE = "End to end · ratios with 95% intervals";

    /** What the chart's categories count: wrk's connections, each a request in flight, not client threads. */
    static final String CHART_AXIS = "connections";

    private HttpReport() {
    }

    /**
     * Writes the report and its chart.
     * @param settings how the run measured
     * @param result what it measured
     * @param facts the run's facts by section; a "Run" section gets this benchmark's own lines
     * @return the report
     * @throws IOException if a file cannot be written
     */
    static Path write(HttpBenchmark.Settings settings, HttpRun.Result result, Map<String, Map<String, String>> facts)
            throws IOException {
        double limit = settings.maxDisturbanceCores();
        List<HttpSlice> slices = result.slices();
        List<HttpVerdicts.Row> rows = HttpVerdicts.evaluate(result.goals(), slices, limit);
        StringBuilder md = new StringBuilder("# End to end: a Boot web application on each cache setup\n\n");
        md.append("`GET /items/{id}` answers a JSON item of about 1 KB through a `@Cacheable` method on Spring's cache abstraction"
                + " over Redis; ids drawn uniformly from ").append(String.format(Locale.ROOT, "%,d", Item.KEYS))
                .append(", every one cached before the first slice. wrk loads one application at a time, each connection a request"
                + " in flight. Each cell: the median of per-cycle ratios, its 95% interval, the cycles kept of those measured, and the"
                + " verdict: **met** when the whole interval is on the goal's side, **missed** when wholly on the other, *undecided*"
                + " otherwise. A cycle is dropped when, during one of its two slices, processes other than the benchmark's (and"
                + " steal) used more than ").append(String.format(Locale.ROOT, "%.2f", limit)).append(" cores.\n\n");
        md.append(VerdictReport.summary(rows)).append('\n');
        for (HttpGoal.Measure measure : HttpGoal.Measure.values()) {
            md.append("## ").append(capitalized(measure.label())).append("\n\n");
            md.append(goalTable(rows.stream().filter(row -> row.goal().measure() == measure).toList())).append('\n');
        }
        RatioCharts.write(settings.out().resolve(CHART), CHART_TITLE, CHART_AXIS, panels(rows));
        md.append("![Ratios with their intervals](").append(CHART).append(")\n\n");
        md.append("## Each application's figures\n\n");
        md.append("Median over the kept slices with the 95% interval: requests per second; p99 latency in ms; the application"
                + " JVM's CPU time per request in µs; and the items made during the slices (cache misses; 0 while every id stays"
                + " cached).\n\n");
        md.append(figures(result.apps().keySet(), slices, limit)).append('\n');
        md.append("## Warm-ups\n\n");
        md.append("Before its first slice at each connection count, each application alone: every id asked for once, then wrk at"
                + " that count in ").append(HttpRun.WARM_UP_STEP.toSeconds()).append(" s steps for at least ")
                .append(settings.warmUp().toSeconds()).append(" s and until its JIT compiled at most ").append(HttpRun.QUIET_COMPILE_MILLIS)
                .append(" ms in a step (at most ").append(settings.warmUp().plus(settings.settle()).toSeconds()).append(" s).\n\n");
        md.append(warmUps(result.warmUps())).append('\n');
        md.append("## The machine during the slices\n\n");
        md.append("In cores (2.0 = both busy): CPU of processes other than the benchmark's (\"outside\"; the benchmark's are the"
                + " harness, the applications, Redis and wrk), steal, and interrupt work.\n\n");
        md.append(host(slices, limit)).append('\n');
        md.append("## The applications\n\n| application | what it runs |\n|---|---|\n");
        result.apps().forEach((app, description) -> md.append("| `").append(app).append("` | ").append(description)
                .append(app.endsWith(GoalSet.TWIN) ? " (the A/A control's second JVM)" : "")
                .append(" |\n"));
        md.append('\n');
        Map<String, Map<String, String>> sections = new LinkedHashMap<>(facts);
        Map<String, String> run = new LinkedHashMap<>(sections.getOrDefault("Run", Map.of()));
        run.put("Connections", settings.connections().stream().map(String::valueOf).collect(Collectors.joining(", ")));
        run.put("Cycles", settings.pairs() + " per connection count at least, up to " + settings.maxPairs() + " (in batches of "
                + settings.batch() + ") while a goal is undecided");
        run.put("Slice", (settings.ramp().isZero() ? "" : settings.ramp().toSeconds() + " s of unmeasured wrk, then ")
                + settings.slice().toSeconds() + " s measured by a second wrk; the same ids for every application of a cycle");
        run.put("Application JVMs", "one per application, -Xmx" + settings.appHeap() + ", idle while another runs; garbage collected"
                + " after each of its slices");
        run.put("Load generator", result.wrkVersion() + ", items.lua (in this directory); threads: one per core, at most one per"
                + " connection; request timeout " + Wrk.wholeSeconds(settings.timeout()) + " s");
        run.put("Redis", (settings.redisAddress() == null ? "started by the harness on a free loopback port, no persistence"
                : "given: " + settings.redisAddress()) + (settings.delay().isZero() ? ""
                        : "; the applications reach it through the harness's proxy, which delays each direction by "
                                + settings.delay().toMillis() + " ms"));
        run.put("Dropped", String.format(Locale.ROOT, "a cycle whose slice saw more than %.2f cores taken by other processes and"
                + " steal", limit));
        sections.put("Run", run);
        Map<String, String> versions = new LinkedHashMap<>(sections.getOrDefault("Versions", Map.of()));
        versions.keySet().removeAll(List.of("memcached", "spymemcached", "xmemcached"));
        versions.put("spring-boot", SpringBootVersion.getVersion());
        versions.put("tomcat", ServerInfo.getServerNumber());
        versions.put("wrk", result.wrkVersion());
        sections.put("Versions", versions);
        md.append(VerdictReport.factsSections(sections));
        Path file = settings.out().resolve(FILE);
        Files.writeString(file, md, StandardCharsets.UTF_8);
        return file;
    }

    /** One row per comparison, one column per connection count. */
    static String goalTable(List<HttpVerdicts.Row> rows) {
        List<Integer> connections = rows.stream().map(HttpVerdicts.Row::connections).distinct().sorted().toList();
        StringBuilder md = new StringBuilder("| comparison | goal |");
        connections.forEach(count -> md.append(' ').append(count).append(" connections |"));
        md.append("\n|---|---|");
        connections.forEach(count -> md.append("---|"));
        md.append('\n');
        Map<HttpGoal, Map<Integer, HttpVerdicts.Row>> byGoal = new LinkedHashMap<>();
        rows.forEach(row -> byGoal.computeIfAbsent(row.goal(), any -> new TreeMap<>()).put(row.connections(), row));
        byGoal.forEach((goal, cells) -> {
            md.append("| ").append(goal.label()).append(" | ").append(goalText(goal, connections)).append(" |");
            connections.forEach(count -> md.append(' ').append(cells.containsKey(count) ? VerdictReport.cell(cells.get(count), "") : "").append(" |"));
            md.append('\n');
        });
        return md.toString();
    }

    /** For example {@code ≥ 1.1 at 64, 256}, or {@code (for information)}. */
    static String goalText(HttpGoal goal, List<Integer> connections) {
        return VerdictReport.goalText(goal.control(), goal::goalText, connections);
    }

    /**
     * The chart's panels: per measure, one panel for each comparison that has a goal, and one for
     * the rest (information and the A/A control).
     */
    static List<RatioPanel> panels(List<HttpVerdicts.Row> rows) {
        Map<String, List<RatioPoint>> points = new LinkedHashMap<>();
        Map<String, Map<Integer, Double>> thresholds = new LinkedHashMap<>();
        for (HttpVerdicts.Row row : rows) {
            HttpGoal goal = row.goal();
            boolean hasGoal = !goal.thresholds().isEmpty();
            String title = capitalized(goal.measure().label()) + " · " + (hasGoal ? goal.label() : "for information");
            points.computeIfAbsent(title, any -> new ArrayList<>()).add(new RatioPoint(hasGoal ? goal.numerator() : goal.label(),
                    row.connections(), row.interval(), row.verdict()));
            Map<Integer, Double> panelThresholds = thresholds.computeIfAbsent(title, any -> new TreeMap<>());
            if (hasGoal && !Double.isNaN(goal.threshold(row.connections()))) {
                panelThresholds.put(row.connections(), goal.threshold(row.connections()));
            }
        }
        List<RatioPanel> panels = new ArrayList<>();
        points.forEach((title, list) -> panels.add(new RatioPanel(title, list, thresholds.get(title))));
        return panels;
    }

    static String figures(Iterable<String> apps, List<HttpSlice> slices, double limit) {
        List<Integer> connections = slices.stream().map(HttpSlice::connections).distinct().sorted().toList();
        StringBuilder md = new StringBuilder("| application |");
        connections.forEach(count -> md.append(' ').append(count).append(" connections: req/s · p99 ms · CPU µs/req · misses |"));
        md.append("\n|---|");
        connections.forEach(count -> md.append("---|"));
        md.append('\n');
        for (String app : apps) {
            md.append("| `").append(app).append("` |");
            for (int count : connections) {
                Interval rps = HttpVerdicts.figure(app, count, slices, limit, HttpSlice::requestsPerSecond);
                Interval p99 = HttpVerdicts.figure(app, count, slices, limit, HttpSlice::p99Micros);
                Interval cpu = HttpVerdicts.figure(app, count, slices, limit, HttpSlice::appCpuMicrosPerRequest);
                long misses = slices.stream().filter(slice -> slice.app().equals(app) && slice.connections() == count)
                        .mapToLong(HttpSlice::loads).sum();
                md.append(rps.pairs() == 0 ? " – |" : String.format(Locale.ROOT, " %,.0f [%,.0f, %,.0f] · %.2f [%.2f, %.2f] · %.0f · %d |",
                        rps.median(), rps.low(), rps.high(), p99.median() / 1000, p99.low() / 1000, p99.high() / 1000, cpu.median(),
                        misses));
            }
            md.append('\n');
        }
        return md.toString();
    }

    static String warmUps(List<HttpRun.WarmUp> warmUps) {
        StringBuilder md = new StringBuilder("| application | connections | fill | loaded | JIT in the last step | items made so far |"
                + " Lettuce transport | strategy at the end | errors |\n|---|---:|---:|---:|---|---:|---|---|---:|\n");
        for (HttpRun.WarmUp warmUp : warmUps) {
            md.append(String.format(Locale.ROOT, "| `%s` | %d | %.1f s | %.0f s | %d ms%s | %,d | %s | %s | %d |%n", warmUp.app(),
                    warmUp.connections(), warmUp.fill().toMillis() / 1000.0, warmUp.load().toMillis() / 1000.0,
                    warmUp.lastStepCompileMillis(), warmUp.quiet() ? "" : " (still compiling)", warmUp.state().loads(),
                    warmUp.state().transport(), warmUp.state().strategy(), warmUp.errors()));
        }
        return md.toString();
    }

    static String host(List<HttpSlice> slices, double limit) {
        StringBuilder md = new StringBuilder("| connections | slices | disturbed | outside, median · max | steal, median · max |"
                + " interrupts, median | benchmark's own, median |\n|---:|---:|---:|---|---|---|---|\n");
        Map<Integer, List<HttpSlice>> byConnections = new TreeMap<>();
        slices.forEach(slice -> byConnections.computeIfAbsent(slice.connections(), any -> new ArrayList<>()).add(slice));
        byConnections.forEach((count, list) -> md.append(String.format(Locale.ROOT, "| %d | %d | %d | %.2f · %.2f | %.2f · %.2f | %.2f |"
                + " %.2f |%n", count, list.size(), list.stream().filter(slice -> slice.disturbed(limit)).count(),
                median(list.stream().mapToDouble(HttpSlice::outsideCores).toArray()),
                list.stream().mapToDouble(HttpSlice::outsideCores).max().orElse(0),
                median(list.stream().mapToDouble(HttpSlice::stealCores).toArray()),
                list.stream().mapToDouble(HttpSlice::stealCores).max().orElse(0),
                median(list.stream().mapToDouble(HttpSlice::irqCores).toArray()),
                median(list.stream().mapToDouble(HttpSlice::oursCores).toArray()))));
        return md.toString();
    }

    private static double median(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String capitalized(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
