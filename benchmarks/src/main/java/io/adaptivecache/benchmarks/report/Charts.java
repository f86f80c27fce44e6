package io.adaptivecache.benchmarks.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.benchmarks.targets.BenchTarget;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts of a run, two per workload group: median throughput against caller threads, and
 * median p99 latency against caller threads (both axes logarithmic where values span decades).
 * adaptive-cache's targets are solid lines, the hand-written ones dashed, the peers dotted.
 */
public final class Charts {

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
            new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf), new Color(0xbcbd22),
            new Color(0x7f7f7f), new Color(0x393b79), new Color(0xad494a), new Color(0x637939), new Color(0x843c39)};

    private Charts() {
    }

    /**
     * Writes the charts of every group.
     * @param results the run
     * @param kinds each target's kind, by id
     * @param directory where to write
     * @return the files written, by group: throughput chart then p99 chart
     * @throws IOException if a file cannot be written
     */
    public static Map<Workload.Group, List<Path>> write(ResultSet results, Map<String, BenchTarget.Kind> kinds, Path directory)
            throws IOException {
        Map<Workload.Group, List<Path>> written = new java.util.LinkedHashMap<>();
        for (Workload.Group group : results.groups()) {
            Path throughput = directory.resolve(group.slug() + "-throughput.png");
            Path p99 = directory.resolve(group.slug() + "-p99.png");
            save(chart(results, kinds, group, "Throughput · " + group.title(), "calls per second", CellSummary::opsPerSecond, false),
                    throughput);
            save(chart(results, kinds, group, "p99 latency · " + group.title(), "p99 latency (ms)",
                    summary -> summary.p99Micros() / 1000.0, true), p99);
            written.put(group, List.of(throughput, p99));
        }
        return written;
    }

    private static XYChart chart(ResultSet results, Map<String, BenchTarget.Kind> kinds, Workload.Group group, String title,
            String yTitle, ToDoubleFunction<CellSummary> figure, boolean logarithmicY) {
        XYChart chart = new XYChartBuilder().width(1000).height(560).title(title).xAxisTitle("caller threads").yAxisTitle(yTitle)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE).setChartBackgroundColor(Color.WHITE)
                .setMarkerSize(6);
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(logarithmicY).setXAxisDecimalPattern("#");
        int index = 0;
        for (String target : results.targets(group)) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int threads : results.threads(group)) {
                Optional<CellSummary> summary = results.summary(target,
                        new Workload(group.backend(), group.network(), group.valueBytes(), threads, group.mix()));
                if (summary.isPresent() && figure.applyAsDouble(summary.get()) > 0) {
                    x.add((double) threads);
                    y.add(figure.applyAsDouble(summary.get()));
                }
            }
            if (x.isEmpty()) {
                continue;
            }
            XYSeries series = chart.addSeries(target, x, y);
            series.setMarker(SeriesMarkers.CIRCLE);
            Color color = PALETTE[index++ % PALETTE.length];
            series.setLineColor(color);
            series.setMarkerColor(color);
            series.setLineStyle(stroke(kinds.getOrDefault(target, BenchTarget.Kind.PEER)));
        }
        return chart;
    }

    private static BasicStroke stroke(BenchTarget.Kind kind) {
        return switch (kind) {
            case ADAPTIVE_CACHE -> new BasicStroke(2.5f);
            case HAND_WRITTEN -> SeriesLines.DASH_DASH;
            case PEER -> SeriesLines.DOT_DOT;
        };
    }

    private static void save(XYChart chart, Path file) throws IOException {
        if (chart.getSeriesMap().isEmpty()) {
            return;
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
