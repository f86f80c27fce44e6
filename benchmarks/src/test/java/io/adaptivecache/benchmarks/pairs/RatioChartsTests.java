package io.adaptivecache.benchmarks.pairs;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/** Ratio charts are PNGs of small multiples that a reader can open: sized by their panels, never blank, never failing on odd data. */
class RatioChartsTests {

    private static final String POOLED = "ours-jedis-pooled-8";

    private static final String ADAPTIVE_JEDIS = "ours-adaptive-jedis@io_uring";

    private static final String ADAPTIVE = "ours-adaptive@io_uring";

    @TempDir
    Path directory;

    @Test
    void threePanelsShouldBeLaidOutInTwoColumnsAndTwoRowsAndDrawnInTheSeriesColours() throws IOException {
        Path file = this.directory.resolve("ratios.png");

        RatioCharts.write(file, "Throughput ratios · redis, loopback", realisticPanels());

        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(1200);
        int width = 2 * RatioCharts.MARGIN + 2 * RatioCharts.PANEL_WIDTH + RatioCharts.GAP;
        assertThat(image.getWidth()).isEqualTo(width);
        assertThat(image.getHeight())
                .isEqualTo(RatioCharts.header(width) + 2 * RatioCharts.PANEL_HEIGHT + RatioCharts.GAP + RatioCharts.MARGIN)
                .isBetween(800, 900);
        // Not blank: a fair share of the image is ink, and each series' colour and the goal's appear in it.
        assertThat(nonWhiteShare(image)).isGreaterThan(0.02);
        assertThat(count(image, RatioCharts.PALETTE[0])).isPositive();
        assertThat(count(image, RatioCharts.PALETTE[1])).isPositive();
        assertThat(count(image, RatioCharts.PALETTE[2])).isPositive();
        assertThat(count(image, RatioCharts.PALETTE[3])).isPositive();
        assertThat(count(image, RatioCharts.GOAL)).isPositive();
    }

    @Test
    void aSinglePanelShouldMakeANarrowImageOfOneColumn() throws IOException {
        Path file = this.directory.resolve("one.png");

        RatioCharts.write(file, "One", realisticPanels().subList(0, 1));

        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image.getWidth()).isEqualTo(2 * RatioCharts.MARGIN + RatioCharts.PANEL_WIDTH);
        assertThat(image.getHeight()).isEqualTo(RatioCharts.header(image.getWidth()) + RatioCharts.PANEL_HEIGHT + RatioCharts.MARGIN);
        assertThat(count(image, RatioCharts.PALETTE[0])).isPositive();
    }

    @Test
    void noPanelsShouldGiveASmallImageSayingThereIsNoData() throws IOException {
        Path file = this.directory.resolve("empty.png");

        RatioCharts.write(file, "Nothing measured", List.of());

        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image.getWidth()).isEqualTo(RatioCharts.EMPTY_WIDTH);
        assertThat(image.getHeight()).isEqualTo(RatioCharts.EMPTY_HEIGHT);
        assertThat(nonWhiteShare(image)).isPositive();
    }

    @Test
    void emptyPanelsNaNIntervalsAndASingleCallerCountShouldBeDrawnWithoutFailing() throws IOException {
        Path file = this.directory.resolve("edges.png");
        List<RatioPanel> panels = new ArrayList<>();
        panels.add(new RatioPanel("no points", List.of(), Map.of(8, 0.95)));
        panels.add(new RatioPanel("one caller count", List.of(new RatioPoint(POOLED, 8, interval(1.2, 0.1), Verdict.MET),
                new RatioPoint(ADAPTIVE_JEDIS, 8, new Interval(Double.NaN, Double.NaN, Double.NaN, 3), Verdict.MISSED),
                new RatioPoint(ADAPTIVE, 8, new Interval(1.1, Double.NaN, Double.POSITIVE_INFINITY, 2), Verdict.UNDECIDED)),
                Map.of(8, 1.05)));
        panels.add(new RatioPanel("only empty intervals", List.of(new RatioPoint(POOLED, 1, Interval.EMPTY, Verdict.NONE),
                new RatioPoint(ADAPTIVE, 50, Interval.EMPTY, Verdict.UNDECIDED)), Map.of(1, Double.NaN)));
        panels.add(new RatioPanel(null, null, null));

        assertThatNoException().isThrownBy(() -> RatioCharts.write(file, "Edges", panels));

        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image.getWidth()).isEqualTo(1200);
        assertThat(image.getHeight())
                .isEqualTo(RatioCharts.header(1200) + 2 * RatioCharts.PANEL_HEIGHT + RatioCharts.GAP + RatioCharts.MARGIN);
        assertThat(count(image, RatioCharts.PALETTE[0])).isPositive();
    }

    @Test
    void eachVerdictHasAMarkerOfItsOwnThatReadsAtTheDrawnSize() {
        Color colour = RatioCharts.PALETTE[1];
        Map<Verdict, List<Boolean>> seen = new java.util.EnumMap<>(Verdict.class);
        for (Verdict verdict : List.of(Verdict.MET, Verdict.MISSED, Verdict.UNDECIDED)) {
            BufferedImage image = new BufferedImage(40, 40, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = image.createGraphics();
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, 40, 40);
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            // Centred on pixel (20, 20), so that whole pixels sample the centre and a point 6 px above it.
            RatioCharts.marker(g, verdict, 20.5, 20.5, colour);
            g.dispose();
            seen.put(verdict, List.of(is(image, 20, 20, colour), is(image, 20, 14, colour)));
        }

        // [filled at the centre, reaching 6 px above it, past a circle's edge]
        assertThat(seen.get(Verdict.MET)).as("met: a filled circle").containsExactly(true, false);
        assertThat(seen.get(Verdict.MISSED)).as("missed: hollow").containsExactly(false, false);
        assertThat(seen.get(Verdict.UNDECIDED)).as("undecided: filled, so never read as hollow, and taller than a circle")
                .containsExactly(true, true);
    }

    @Test
    void theXAxisIsTitledAsTheChartSaysAndCallersByDefault() {
        List<RatioPanel> panels = realisticPanels();

        BufferedImage byDefault = RatioCharts.render("Axis", panels);
        BufferedImage callers = RatioCharts.render("Axis", "callers", panels);
        BufferedImage connections = RatioCharts.render("Axis", "connections", panels);

        assertThat(pixels(byDefault)).isEqualTo(pixels(callers));
        assertThat(pixels(connections)).isNotEqualTo(pixels(callers));
    }

    /** As the verdict harness makes them: two goal panels with thresholds per caller count, and an A/A control. */
    static List<RatioPanel> realisticPanels() {
        List<RatioPoint> jedis = List.of(point(POOLED, 1, 0.98, 0.04, Verdict.MET),
                point(ADAPTIVE_JEDIS, 1, 0.93, 0.06, Verdict.UNDECIDED),
                point(ADAPTIVE, 1, 0.85, 0.06, Verdict.MISSED), point(POOLED, 8, 1.01, 0.05, Verdict.MET),
                point(ADAPTIVE_JEDIS, 8, 0.96, 0.08, Verdict.UNDECIDED), point(ADAPTIVE, 8, 0.92, 0.07, Verdict.UNDECIDED),
                point(POOLED, 50, 1.12, 0.1, Verdict.MISSED), point(ADAPTIVE_JEDIS, 50, 1.45, 0.12, Verdict.UNDECIDED),
                point(ADAPTIVE, 50, 1.38, 0.15, Verdict.UNDECIDED), point(POOLED, 200, 1.05, 0.08, Verdict.MISSED),
                point(ADAPTIVE_JEDIS, 200, 1.52, 0.09, Verdict.MET), new RatioPoint(ADAPTIVE, 200, Interval.EMPTY, Verdict.UNDECIDED));
        List<RatioPoint> lettuce = List.of(point(ADAPTIVE_JEDIS, 1, 0.82, 0.06, Verdict.NONE),
                point(ADAPTIVE, 1, 0.76, 0.08, Verdict.NONE),
                point(ADAPTIVE_JEDIS, 8, 0.95, 0.07, Verdict.NONE), point(ADAPTIVE, 8, 0.9, 0.1, Verdict.NONE),
                point(ADAPTIVE_JEDIS, 50, 1.35, 0.15, Verdict.UNDECIDED), point(ADAPTIVE, 50, 1.28, 0.2, Verdict.UNDECIDED),
                point(ADAPTIVE_JEDIS, 200, 1.41, 0.05, Verdict.MET), point(ADAPTIVE, 200, 1.18, 0.08, Verdict.MISSED));
        String control = "ours-adaptive@io_uring (A/A)";
        List<RatioPoint> aa = List.of(point(control, 1, 1.004, 0.02, Verdict.NONE), point(control, 8, 0.996, 0.025, Verdict.NONE),
                point(control, 50, 1.01, 0.03, Verdict.NONE), point(control, 200, 0.99, 0.04, Verdict.NONE));
        return List.of(new RatioPanel("÷ best JedisPool (8 or 50)", jedis, Map.of(1, 0.95, 8, 0.95, 50, 1.4, 200, 1.4)),
                new RatioPanel("÷ Lettuce shared, NIO", lettuce, Map.of(50, 1.3, 200, 1.3)),
                new RatioPanel("A/A control", aa, Map.of()));
    }

    private static RatioPoint point(String series, int threads, double median, double halfWidth, Verdict verdict) {
        return new RatioPoint(series, threads, interval(median, halfWidth), verdict);
    }

    private static Interval interval(double median, double halfWidth) {
        // Bootstrap intervals of a median are seldom symmetric.
        return new Interval(median, median - halfWidth, median + 0.8 * halfWidth, 30);
    }

    /** Every pixel, row by row. */
    static int[] pixels(BufferedImage image) {
        return image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth());
    }

    private static boolean is(BufferedImage image, int x, int y, Color colour) {
        return (image.getRGB(x, y) & 0xFFFFFF) == (colour.getRGB() & 0xFFFFFF);
    }

    private static double nonWhiteShare(BufferedImage image) {
        return (double) (image.getWidth() * image.getHeight() - count(image, Color.WHITE)) / (image.getWidth() * image.getHeight());
    }

    private static int count(BufferedImage image, Color colour) {
        int wanted = colour.getRGB() & 0xFFFFFF;
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == wanted) {
                    count++;
                }
            }
        }
        return count;
    }
}
