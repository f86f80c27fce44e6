package io.adaptivecache.benchmarks.http;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import io.adaptivecache.benchmarks.pairs.RatioCharts;
import io.adaptivecache.benchmarks.pairs.RatioPanel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class HttpReportTests {

    @Test
    void aGoalIsWrittenOncePerThresholdWithTheCountsItHoldsAt() {
        HttpGoal goal = HttpGoal.all().get(0);

        assertThat(HttpReport.goalText(goal, List.of(16, 64, 256))).isEqualTo("≥ 1.1 at 64, 256");
        assertThat(HttpReport.goalText(goal, List.of(64))).isEqualTo("≥ 1.1");
        assertThat(HttpReport.goalText(goal, List.of(16))).isEqualTo("(for information)");
    }

    @Test
    void theChartHasAPanelPerGoalAndOneForTheRestPerMeasure() {
        List<HttpSlice> slices = slices(List.of(16, 64), 4);
        List<HttpVerdicts.Row> rows = HttpVerdicts.evaluate(HttpGoal.all(), slices, 0.2);

        List<RatioPanel> panels = HttpReport.panels(rows);

        assertThat(panels).extracting(RatioPanel::title).containsExactly("Requests per second · adaptive ÷ spring-defaults",
                "Requests per second · adaptive-near ÷ spring-defaults", "Requests per second · for information",
                "P99 latency (lower is better) · adaptive ÷ spring-defaults", "P99 latency (lower is better) · for information");
        assertThat(panels.get(0).thresholds()).containsExactly(Map.entry(64, 1.1));
        assertThat(panels.get(1).thresholds()).containsOnly(Map.entry(16, 1.5), Map.entry(64, 1.5));
        assertThat(panels.get(2).points()).extracting(point -> point.series()).contains("A/A: spring-defaults ÷ spring-defaults in a"
                + " second JVM");
    }

    @Test
    void writesTheVerdictTablesFiguresWarmUpsAndChart(@TempDir Path out) throws Exception {
        List<HttpSlice> slices = slices(List.of(64), 4);
        HttpBenchmark.Settings settings = new HttpBenchmark.Settings(out, List.of(64), List.of(), null, Duration.ZERO, Duration.ofSeconds(5),
                Duration.ofSeconds(20), Duration.ofSeconds(100), Duration.ofSeconds(1), Duration.ofSeconds(5), 4, 4, 2, 0.2, "1g");
        Map<String, String> apps = new LinkedHashMap<>();
        HttpGoal.apps(HttpGoal.all()).forEach(app -> apps.put(app, "what " + app + " runs"));
        List<HttpRun.WarmUp> warmUps = List.of(new HttpRun.WarmUp("adaptive", 64, Duration.ofMillis(3200), Duration.ofSeconds(24),
                12, true, 0, new AppState(9000, 10_000, "MULTI(2)", 0, "io_uring")));
        HttpRun.Result result = new HttpRun.Result(slices, HttpGoal.all(), warmUps, apps, "wrk 4.1.0", Instant.EPOCH,
                Instant.EPOCH.plusSeconds(60));
        Map<String, Map<String, String>> facts = new LinkedHashMap<>();
        facts.put("Run", new LinkedHashMap<>(Map.of("Command", "`java -jar ...`")));

        Path report = HttpReport.write(settings, result, facts);

        String md = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(report.getFileName()).hasToString("e2e.md");
        assertThat(md).contains("## Requests per second", "| adaptive ÷ spring-defaults | ≥ 1.1 | 1.20x [1.20, 1.20] · 4/4 · **met** |",
                "## P99 latency (lower is better)", "| adaptive ÷ spring-defaults | ≤ 1.0 | 0.80x [0.80, 0.80] · 4/4 · **met** |",
                "| A/A: spring-defaults ÷ spring-defaults in a second JVM | contains 1.0 | 1.00x [1.00, 1.00] · 4/4 · holds |",
                "A/A controls: 2 of 2 hold", "![Ratios with their intervals](e2e-ratios.png)", "## Each application's figures",
                "| `adaptive` | 1,200 [1,200, 1,200] · 4.00 [4.00, 4.00] · 50 · 0 |", "## Warm-ups",
                "| `adaptive` | 64 | 3.2 s | 24 s | 12 ms | 10,000 | io_uring | MULTI(2) | 0 |",
                "| `spring-defaults#2` | what spring-defaults#2 runs (the A/A control's second JVM) |", "| Connections | 64 |",
                "| Load generator | wrk 4.1.0,", "| Command | `java -jar ...` |");
        assertThat(Files.size(out.resolve(HttpReport.CHART))).isPositive();
    }

    @Test
    void theChartCountsConnectionsAcrossNotCallers(@TempDir Path out) throws Exception {
        List<HttpSlice> slices = slices(List.of(16, 64), 4);
        HttpBenchmark.Settings settings = new HttpBenchmark.Settings(out, List.of(16, 64), List.of(), null, Duration.ZERO, Duration.ofSeconds(5),
                Duration.ofSeconds(20), Duration.ofSeconds(100), Duration.ofSeconds(1), Duration.ofSeconds(5), 4, 4, 2, 0.2, "1g");
        HttpRun.Result result = new HttpRun.Result(slices, HttpGoal.all(), List.of(), new LinkedHashMap<>(), "wrk 4.1.0",
                Instant.EPOCH, Instant.EPOCH.plusSeconds(60));
        HttpReport.write(settings, result, new LinkedHashMap<>());
        List<RatioPanel> panels = HttpReport.panels(HttpVerdicts.evaluate(HttpGoal.all(), slices, 0.2));
        Path connections = out.resolve("connections.png");
        Path callers = out.resolve("callers.png");
        RatioCharts.write(connections, HttpReport.CHART_TITLE, "connections", panels);
        RatioCharts.write(callers, HttpReport.CHART_TITLE, "callers", panels);

        int[] written = pixels(out.resolve(HttpReport.CHART));

        assertThat(written).as("the chart drawn with a connections axis").isEqualTo(pixels(connections));
        assertThat(written).as("the chart drawn with a callers axis").isNotEqualTo(pixels(callers));
    }

    private static int[] pixels(Path png) throws Exception {
        BufferedImage image = ImageIO.read(png.toFile());
        return image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth());
    }

    /** Every application in every cycle: adaptive at 1.2x Boot's defaults with 0.8x its p99, the rest level. */
    private static List<HttpSlice> slices(List<Integer> connections, int cycles) {
        List<HttpSlice> slices = new ArrayList<>();
        for (int count : connections) {
            for (int cycle = 1; cycle <= cycles; cycle++) {
                int position = 0;
                for (String app : HttpGoal.apps(HttpGoal.all())) {
                    boolean adaptive = app.startsWith("adaptive");
                    double rps = adaptive ? 1200 : 1000;
                    double p99 = adaptive ? 4000 : 5000;
                    slices.add(new HttpSlice(count, cycle, position++, app, (long) rps * 5, rps, 0, p99 / 2, p99, 50, 0, 0.01, 0,
                            0.1, 1.8, "-", 0));
                }
            }
        }
        return slices;
    }
}
