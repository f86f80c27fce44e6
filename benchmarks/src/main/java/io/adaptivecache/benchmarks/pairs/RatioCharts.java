package io.adaptivecache.benchmarks.pairs;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.font.LineMetrics;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import javax.imageio.ImageIO;

/**
 * A PNG of ratio charts as small multiples: one panel per {@link RatioPanel}, caller counts across,
 * the ratio up, one colour per numerator, each point its median with a whisker for its 95% interval,
 * and the goal's threshold a dashed segment per caller count. The marker shows the verdict, so that a
 * reader sees at a glance which goals are met (a filled circle), missed (a hollow one) or still
 * undecided (a filled diamond).
 * <p>
 * Drawn with plain Java2D rather than a charting library: the chart needs a marker per point (the
 * verdict), whiskers offset per series within a category and a threshold that changes per category,
 * which a library's series model does not express without fighting it.
 */
public final class RatioCharts {

    /** Width of one panel, frame included. */
    static final int PANEL_WIDTH = 570;

    /** Height of one panel, frame included. */
    static final int PANEL_HEIGHT = 360;

    /** Space around the panels. */
    static final int MARGIN = 20;

    /** Space between panels. */
    static final int GAP = 20;

    /** Two columns keep the image near 1200 px wide while each panel stays wide enough for four caller counts. */
    static final int MAX_COLUMNS = 2;

    /** Size of the image written when there is nothing to draw. */
    static final int EMPTY_WIDTH = 600;

    /** Height of the image written when there is nothing to draw. */
    static final int EMPTY_HEIGHT = 160;

    /** Okabe–Ito colours, distinguishable with the common colour-vision deficiencies; yellow left out as too pale on white. */
    static final Color[] PALETTE = { new Color(0x0072B2), new Color(0xE69F00), new Color(0x009E73), new Color(0xCC79A7),
            new Color(0x56B4E9), new Color(0xD55E00) };

    /** Dark red: apart from every palette colour, and the usual colour of a limit. */
    static final Color GOAL = new Color(0x9B1C1C);

    /** Text and titles; shared with {@link PhaseCharts}, so that the pages of one report look alike. */
    static final Color INK = new Color(0x222222);

    /** Secondary text (keys, notes). */
    static final Color MUTED = new Color(0x5F5F5F);

    private static final Color AXIS = new Color(0x9A9A9A);

    /** Grid lines. */
    static final Color GRID = new Color(0xECECEC);

    private static final Color UNITY = new Color(0xB0B0B0);

    /** Panel frames. */
    static final Color FRAME = new Color(0xD6D6D6);

    /** The text font family: DejaVu Sans where installed, else the logical sans-serif. */
    static final String FAMILY = family();

    private static final Font TITLE = new Font(FAMILY, Font.BOLD, 20);

    private static final Font PANEL_TITLE = new Font(FAMILY, Font.BOLD, 15);

    private static final Font LEGEND = new Font(FAMILY, Font.PLAIN, 13);

    private static final Font TICK = new Font(FAMILY, Font.PLAIN, 12);

    private static final Font GOAL_LABEL = new Font(FAMILY, Font.BOLD, 12);

    /** Measures text as it is drawn: anti-aliased, fractional metrics. */
    private static final FontRenderContext MEASURE = new FontRenderContext(null, true, true);

    /** Padding inside a panel's frame. */
    private static final int PAD = 14;

    /** Radius of a point's marker. */
    static final double RADIUS = 5.5;

    /**
     * Half the diagonal of the undecided marker's diamond: its corners reach past a circle's edge, so that
     * its outline differs from the met marker's as its fill differs from the missed one's.
     */
    static final double DIAMOND = 7.5;

    /** Width of a verdict marker's icon in the key: the diamond's, the widest. */
    private static final int MARKER_ICON = (int) Math.ceil(2 * DIAMOND);

    /** The x axis's title unless a chart names its own. */
    static final String CALLERS = "callers";

    /** Widest horizontal offset between two series of a category, so that neighbours' whiskers stay apart. */
    private static final double SERIES_STEP = 16;

    /** Space between a legend's items. */
    private static final int ITEM_GAP = 20;

    private RatioCharts() {
    }

    /**
     * Writes one PNG of small multiples, one panel per {@link RatioPanel}, laid out in a grid of at most
     * {@value #MAX_COLUMNS} columns, with caller counts across. Points without pairs are left out; an
     * empty list gives a small image saying "no data".
     * @param file the PNG to write (replaced if it exists)
     * @param title the image's title
     * @param panels the panels, in reading order
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, String title, List<RatioPanel> panels) throws IOException {
        write(file, title, CALLERS, panels);
    }

    /**
     * Writes one PNG of small multiples, as {@link #write(Path, String, List)} does, with the x axis
     * titled as given: a panel's categories are caller counts for the client benchmarks, connections
     * for an HTTP load.
     * @param file the PNG to write (replaced if it exists)
     * @param title the image's title
     * @param axis what the categories across count, such as {@code connections}
     * @param panels the panels, in reading order
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, String title, String axis, List<RatioPanel> panels) throws IOException {
        BufferedImage image = render(title, axis, panels);
        try (OutputStream out = Files.newOutputStream(file)) {
            if (!ImageIO.write(image, "png", out)) {
                throw new IOException("No PNG writer in this JVM");
            }
        }
    }

    /**
     * Draws the image without writing it.
     * @param title the image's title
     * @param panels the panels
     * @return the image
     */
    static BufferedImage render(String title, List<RatioPanel> panels) {
        return render(title, CALLERS, panels);
    }

    /**
     * Draws the image without writing it.
     * @param title the image's title
     * @param axis the x axis's title
     * @param panels the panels
     * @return the image
     */
    static BufferedImage render(String title, String axis, List<RatioPanel> panels) {
        String heading = (title != null) ? title : "";
        List<RatioPanel> shown = (panels != null) ? panels.stream().filter(Objects::nonNull).toList() : List.of();
        if (shown.isEmpty()) {
            return noData(heading);
        }
        int columns = Math.min(MAX_COLUMNS, shown.size());
        int rows = (shown.size() + columns - 1) / columns;
        int width = 2 * MARGIN + columns * PANEL_WIDTH + (columns - 1) * GAP;
        int header = header(width);
        int height = header + rows * PANEL_HEIGHT + (rows - 1) * GAP + MARGIN;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = start(image);
        try {
            drawHeader(g, heading, width);
            Map<String, Color> colours = sharedColours(shown);
            for (int i = 0; i < shown.size(); i++) {
                int left = MARGIN + (i % columns) * (PANEL_WIDTH + GAP);
                int top = header + (i / columns) * (PANEL_HEIGHT + GAP);
                drawPanel(g, shown.get(i), left, top, colours, axis);
            }
        }
        finally {
            g.dispose();
        }
        return image;
    }

    /**
     * Height of the part above the panels: the title, then the key to the markers.
     * @param width the image's width
     * @return the height in pixels
     */
    static int header(int width) {
        return flow(null, key(), LEGEND, MARGIN, width - MARGIN, headerKeyTop(), true) + 14;
    }

    private static int headerKeyTop() {
        return MARGIN + (int) Math.ceil(ascent(TITLE)) + 12;
    }

    private static BufferedImage noData(String heading) {
        BufferedImage image = new BufferedImage(EMPTY_WIDTH, EMPTY_HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = start(image);
        try {
            g.setFont(TITLE);
            g.setColor(INK);
            drawCentred(g, fit(heading, TITLE, EMPTY_WIDTH - 2 * MARGIN), EMPTY_WIDTH / 2.0, MARGIN + ascent(TITLE));
            g.setFont(PANEL_TITLE);
            g.setColor(MUTED);
            drawCentred(g, "no data", EMPTY_WIDTH / 2.0, EMPTY_HEIGHT / 2.0 + 20);
        }
        finally {
            g.dispose();
        }
        return image;
    }

    private static Graphics2D start(BufferedImage image) {
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
        // Pure strokes: thin lines land where computed instead of being snapped to whole pixels.
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        return g;
    }

    private static void drawHeader(Graphics2D g, String heading, int width) {
        g.setFont(TITLE);
        g.setColor(INK);
        drawCentred(g, fit(heading, TITLE, width - 2 * MARGIN), width / 2.0, MARGIN + ascent(TITLE));
        flow(g, key(), LEGEND, MARGIN, width - MARGIN, headerKeyTop(), true);
    }

    /** The key to what every panel draws: the verdict markers, the goal and the whisker. */
    private static List<LegendItem> key() {
        Color ink = new Color(0x444444);
        List<LegendItem> items = new ArrayList<>();
        items.add(new LegendItem("met", MARKER_ICON, (g, x, y) -> marker(g, Verdict.MET, x + MARKER_ICON / 2.0, y, ink)));
        items.add(new LegendItem("missed", MARKER_ICON, (g, x, y) -> marker(g, Verdict.MISSED, x + MARKER_ICON / 2.0, y, ink)));
        items.add(new LegendItem("undecided", MARKER_ICON, (g, x, y) -> marker(g, Verdict.UNDECIDED, x + MARKER_ICON / 2.0, y, ink)));
        items.add(new LegendItem("no goal", MARKER_ICON, (g, x, y) -> marker(g, Verdict.NONE, x + MARKER_ICON / 2.0, y, ink)));
        items.add(new LegendItem("goal", 24, (g, x, y) -> goalLine(g, x, x + 24, y)));
        items.add(new LegendItem("median and 95% interval", 12, (g, x, y) -> {
            whisker(g, x + 6, y - 8, y + 8, ink);
            g.fill(circle(x + 6, y, 3.5));
        }));
        return items;
    }

    /**
     * A colour per series shared by all panels when the palette suffices, so that a numerator keeps its colour
     * from panel to panel; otherwise each panel picks its own.
     */
    private static Map<String, Color> sharedColours(List<RatioPanel> panels) {
        Set<String> all = new LinkedHashSet<>();
        for (RatioPanel panel : panels) {
            all.addAll(series(points(panel)));
        }
        Map<String, Color> colours = new LinkedHashMap<>();
        if (all.size() <= PALETTE.length) {
            for (String series : all) {
                colours.put(series, PALETTE[colours.size()]);
            }
        }
        return colours;
    }

    private static void drawPanel(Graphics2D g, RatioPanel panel, int left, int top, Map<String, Color> shared, String axis) {
        g.setColor(FRAME);
        g.setStroke(new BasicStroke(1f));
        g.draw(new Rectangle2D.Double(left + 0.5, top + 0.5, PANEL_WIDTH - 1, PANEL_HEIGHT - 1));
        int inner = left + PAD;
        int innerRight = left + PANEL_WIDTH - PAD;
        g.setFont(PANEL_TITLE);
        g.setColor(INK);
        String title = (panel.title() != null) ? panel.title() : "";
        g.drawString(fit(title, PANEL_TITLE, innerRight - inner), (float) inner, (float) (top + PAD + ascent(PANEL_TITLE)));

        List<RatioPoint> points = points(panel);
        List<RatioPoint> drawable = points.stream().filter(RatioCharts::drawable).toList();
        Map<Integer, Double> thresholds = thresholds(panel);
        int plotBottom = top + PANEL_HEIGHT - 46;
        if (drawable.isEmpty()) {
            g.setFont(PANEL_TITLE);
            g.setColor(MUTED);
            drawCentred(g, "no data", left + PANEL_WIDTH / 2.0, top + PANEL_HEIGHT / 2.0);
            return;
        }

        // Every series keeps its slot even where it has no point, so that a series sits at the same offset in every category;
        // a series without a single point to draw gets neither slot nor legend entry.
        List<String> series = series(drawable);
        Map<String, Color> colours = new LinkedHashMap<>();
        for (String name : series) {
            colours.put(name, shared.getOrDefault(name, PALETTE[colours.size() % PALETTE.length]));
        }
        List<LegendItem> items = new ArrayList<>();
        for (String name : series) {
            Color colour = colours.get(name);
            items.add(new LegendItem(fit(name, LEGEND, innerRight - inner - 30), 18, (graphics, x, y) -> {
                graphics.setColor(colour);
                graphics.setStroke(new BasicStroke(2.5f));
                graphics.draw(new Line2D.Double(x, y, x + 18, y));
                graphics.fill(circle(x + 9, y, 4.5));
            }));
        }
        int legendTop = top + PAD + (int) Math.ceil(ascent(PANEL_TITLE) + descent(PANEL_TITLE)) + 6;
        int legendBottom = flow(g, items, LEGEND, inner, innerRight, legendTop, false);

        // Caller counts whose points are all empty keep their place, so that panels of one run line up.
        Set<Integer> counts = new TreeSet<>(thresholds.keySet());
        points.forEach(point -> counts.add(point.threads()));
        List<Integer> categories = List.copyOf(counts);
        Scale scale = Scale.of(drawable, thresholds.values());
        double labelWidth = 0;
        for (double tick : scale.ticks()) {
            labelWidth = Math.max(labelWidth, width(scale.label(tick), TICK));
        }
        double plotLeft = inner + labelWidth + 8;
        double plotRight = innerRight - 4;
        // A legend taller than a panel allows (far more series than the palette) would leave no plot: keep some, over the legend.
        double plotTop = Math.min(legendBottom + 14, plotBottom - 80);
        Plot plot = new Plot(plotLeft, plotTop, plotRight, plotBottom, scale, categories, series.size());

        drawAxes(g, plot, axis);
        drawGoals(g, plot, thresholds);
        for (RatioPoint point : drawable) {
            double x = plot.x(point.threads(), series.indexOf(point.series()));
            Color colour = colours.get(point.series());
            Interval interval = point.interval();
            if (Double.isFinite(interval.low()) && Double.isFinite(interval.high())) {
                whisker(g, x, plot.y(interval.high()), plot.y(interval.low()), colour);
            }
            marker(g, point.verdict(), x, plot.y(interval.median()), colour);
        }
    }

    private static void drawAxes(Graphics2D g, Plot plot, String axis) {
        g.setFont(TICK);
        double tickAscent = ascent(TICK);
        for (double tick : plot.scale().ticks()) {
            double y = plot.y(tick);
            g.setColor(GRID);
            g.setStroke(new BasicStroke(1f));
            g.draw(new Line2D.Double(plot.left(), y, plot.right(), y));
            g.setColor(MUTED);
            String label = plot.scale().label(tick);
            g.drawString(label, (float) (plot.left() - 8 - width(label, TICK)), (float) (y + tickAscent / 2 - 1));
        }
        // Parity: above it the numerator is faster. Darker than the grid, lighter than any data.
        g.setColor(UNITY);
        g.setStroke(new BasicStroke(1.4f));
        double unity = plot.y(1.0);
        g.draw(new Line2D.Double(plot.left(), unity, plot.right(), unity));

        g.setColor(AXIS);
        g.setStroke(new BasicStroke(1f));
        g.draw(new Line2D.Double(plot.left(), plot.top(), plot.left(), plot.bottom()));
        g.draw(new Line2D.Double(plot.left(), plot.bottom(), plot.right(), plot.bottom()));
        for (int threads : plot.categories()) {
            double x = plot.centre(threads);
            g.setColor(AXIS);
            g.draw(new Line2D.Double(x, plot.bottom(), x, plot.bottom() + 4));
            g.setColor(INK);
            drawCentred(g, Integer.toString(threads), x, plot.bottom() + 6 + tickAscent);
        }
        g.setColor(MUTED);
        drawCentred(g, axis, (plot.left() + plot.right()) / 2, plot.bottom() + 12 + 2 * tickAscent + 2);
    }

    private static void drawGoals(Graphics2D g, Plot plot, Map<Integer, Double> thresholds) {
        boolean labelled = false;
        for (Map.Entry<Integer, Double> threshold : thresholds.entrySet()) {
            double centre = plot.centre(threshold.getKey());
            double half = Math.min(0.44 * plot.categoryWidth(), 90);
            double y = plot.y(threshold.getValue());
            goalLine(g, centre - half, centre + half, y);
            if (!labelled) {
                // Once is enough: the header's key says what the dashed line is, this names it in place.
                labelled = true;
                g.setFont(GOAL_LABEL);
                double textWidth = width("goal", GOAL_LABEL);
                double textAscent = ascent(GOAL_LABEL);
                double baseline = (y - 4 - textAscent < plot.top()) ? y + textAscent + 4 : y - 4;
                double x = centre + half - textWidth;
                g.setColor(GOAL);
                g.drawString("goal", (float) x, (float) baseline);
            }
        }
    }

    private static void goalLine(Graphics2D g, double from, double to, double y) {
        g.setColor(GOAL);
        g.setStroke(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] { 6f, 4f }, 0f));
        g.draw(new Line2D.Double(from, y, to, y));
    }

    private static void whisker(Graphics2D g, double x, double top, double bottom, Color colour) {
        g.setColor(colour);
        g.setStroke(new BasicStroke(1.6f));
        g.draw(new Line2D.Double(x, top, x, bottom));
        g.draw(new Line2D.Double(x - 4, top, x + 4, top));
        g.draw(new Line2D.Double(x - 4, bottom, x + 4, bottom));
    }

    /**
     * A point's marker, the same in the panels and in the key: a filled circle when the goal is met, a
     * hollow circle with a thick ring when missed, a filled diamond when undecided, a small square without
     * a goal. Each verdict differs from the others in shape or fill, so that none reads as another at the
     * drawn size (a half-filled circle, tried first, read as hollow, that is as missed).
     */
    static void marker(Graphics2D g, Verdict verdict, double x, double y, Color colour) {
        Verdict shown = (verdict != null) ? verdict : Verdict.NONE;
        switch (shown) {
            case MET -> {
                g.setColor(colour);
                g.fill(circle(x, y, RADIUS));
            }
            case MISSED -> {
                g.setColor(Color.WHITE);
                g.fill(circle(x, y, RADIUS));
                g.setColor(colour);
                g.setStroke(new BasicStroke(2.4f));
                g.draw(circle(x, y, RADIUS - 1.2));
            }
            case UNDECIDED -> {
                Path2D.Double diamond = new Path2D.Double();
                diamond.moveTo(x, y - DIAMOND);
                diamond.lineTo(x + DIAMOND, y);
                diamond.lineTo(x, y + DIAMOND);
                diamond.lineTo(x - DIAMOND, y);
                diamond.closePath();
                g.setColor(colour);
                g.fill(diamond);
            }
            case NONE -> {
                g.setColor(colour);
                g.fill(new Rectangle2D.Double(x - 4, y - 4, 8, 8));
            }
        }
    }

    private static Shape circle(double x, double y, double radius) {
        return new Ellipse2D.Double(x - radius, y - radius, 2 * radius, 2 * radius);
    }

    /**
     * Lays out (and, given a graphics, draws) legend items left to right, wrapping to new rows.
     * @return the bottom of the last row
     */
    private static int flow(Graphics2D g, List<LegendItem> items, Font font, int left, int right, int top, boolean centred) {
        int rowHeight = (int) Math.ceil(ascent(font) + descent(font)) + 6;
        List<List<LegendItem>> rows = new ArrayList<>();
        List<Double> rowWidths = new ArrayList<>();
        List<LegendItem> row = new ArrayList<>();
        double rowWidth = 0;
        for (LegendItem item : items) {
            double itemWidth = item.width(font);
            double needed = row.isEmpty() ? itemWidth : rowWidth + ITEM_GAP + itemWidth;
            if (!row.isEmpty() && needed > right - left) {
                rows.add(row);
                rowWidths.add(rowWidth);
                row = new ArrayList<>();
                needed = itemWidth;
            }
            row.add(item);
            rowWidth = needed;
        }
        if (!row.isEmpty()) {
            rows.add(row);
            rowWidths.add(rowWidth);
        }
        if (g != null) {
            g.setFont(font);
            double textAscent = ascent(font);
            for (int r = 0; r < rows.size(); r++) {
                double x = centred ? left + (right - left - rowWidths.get(r)) / 2 : left;
                double middle = top + r * rowHeight + rowHeight / 2.0;
                for (LegendItem item : rows.get(r)) {
                    item.icon().paint(g, x, middle);
                    g.setColor(INK);
                    g.setFont(font);
                    g.drawString(item.text(), (float) (x + item.iconWidth() + 6), (float) (middle + textAscent / 2 - 1.5));
                    x += item.width(font) + ITEM_GAP;
                }
            }
        }
        return top + rows.size() * rowHeight;
    }

    private static List<RatioPoint> points(RatioPanel panel) {
        if (panel.points() == null) {
            return List.of();
        }
        return panel.points().stream().filter(point -> point != null && point.series() != null).toList();
    }

    private static List<String> series(List<RatioPoint> points) {
        return List.copyOf(new LinkedHashSet<>(points.stream().map(RatioPoint::series).toList()));
    }

    private static Map<Integer, Double> thresholds(RatioPanel panel) {
        Map<Integer, Double> thresholds = new TreeMap<>();
        if (panel.thresholds() != null) {
            panel.thresholds().forEach((threads, value) -> {
                if (threads != null && value != null && Double.isFinite(value)) {
                    thresholds.put(threads, value);
                }
            });
        }
        return thresholds;
    }

    /** A point with pairs behind it and a median to place. */
    private static boolean drawable(RatioPoint point) {
        return point.interval() != null && point.interval().pairs() > 0 && Double.isFinite(point.interval().median());
    }

    private static String family() {
        Font dejaVu = new Font("DejaVu Sans", Font.PLAIN, 12);
        // An absent family silently falls back to Dialog; the logical sans-serif is the better fallback.
        return "DejaVu Sans".equals(dejaVu.getFamily(Locale.ROOT)) ? "DejaVu Sans" : Font.SANS_SERIF;
    }

    private static String fit(String text, Font font, double maxWidth) {
        if (width(text, font) <= maxWidth) {
            return text;
        }
        String shortened = text;
        while (!shortened.isEmpty() && width(shortened + "…", font) > maxWidth) {
            shortened = shortened.substring(0, shortened.length() - 1);
        }
        return shortened + "…";
    }

    private static void drawCentred(Graphics2D g, String text, double x, double baseline) {
        g.drawString(text, (float) (x - width(text, g.getFont()) / 2), (float) baseline);
    }

    private static double width(String text, Font font) {
        return font.getStringBounds(text, MEASURE).getWidth();
    }

    private static double ascent(Font font) {
        return lineMetrics(font).getAscent();
    }

    private static double descent(Font font) {
        return lineMetrics(font).getDescent();
    }

    private static LineMetrics lineMetrics(Font font) {
        return font.getLineMetrics("Xg", MEASURE);
    }

    /** Paints a legend item's icon left of its text. */
    @FunctionalInterface
    private interface Icon {

        void paint(Graphics2D g, double left, double middle);
    }

    private record LegendItem(String text, int iconWidth, Icon icon) {

        double width(Font font) {
            return this.iconWidth + 6 + RatioCharts.width(this.text, font);
        }
    }

    /**
     * The linear ratio axis: from the data, always showing parity (1.0), with a little room above and below.
     */
    private record Scale(double min, double max, double step) {

        /** The axis never spans less than this, so that an A/A control's tiny spread does not look dramatic. */
        private static final double MIN_SPAN = 0.1;

        /** Enough ticks to read values off (never just two), few enough to stay quiet. */
        private static final int MAX_STEPS = 7;

        static Scale of(List<RatioPoint> points, Iterable<Double> thresholds) {
            double low = 1.0;
            double high = 1.0;
            List<Double> values = new ArrayList<>();
            for (RatioPoint point : points) {
                values.add(point.interval().median());
                values.add(point.interval().low());
                values.add(point.interval().high());
            }
            thresholds.forEach(values::add);
            for (double value : values) {
                if (Double.isFinite(value)) {
                    low = Math.min(low, value);
                    high = Math.max(high, value);
                }
            }
            if (high - low < MIN_SPAN) {
                double middle = (low + high) / 2;
                low = middle - MIN_SPAN / 2;
                high = middle + MIN_SPAN / 2;
            }
            double padding = 0.07 * (high - low);
            low -= padding;
            high += padding;
            return new Scale(low, high, step(high - low));
        }

        /** The smallest round step (1, 2 or 5 times a power of ten) that splits the span in at most {@link #MAX_STEPS}. */
        private static double step(double span) {
            double magnitude = Math.pow(10, Math.floor(Math.log10(span / MAX_STEPS)));
            for (double factor : new double[] { 1, 2, 5, 10 }) {
                if (span / (factor * magnitude) <= MAX_STEPS) {
                    return factor * magnitude;
                }
            }
            return 20 * magnitude;
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            long first = (long) Math.ceil(this.min / this.step - 1e-9);
            for (long i = first; i * this.step <= this.max + 1e-9; i++) {
                ticks.add(i * this.step);
            }
            return ticks;
        }

        String label(double tick) {
            // As many decimals as the step has (0.05 needs two, 0.2 one), at least one so that 1 reads "1.0x".
            int decimals = 1;
            while (decimals < 4 && !whole(this.step * Math.pow(10, decimals))) {
                decimals++;
            }
            return String.format(Locale.ROOT, "%." + decimals + "fx", tick);
        }

        private static boolean whole(double value) {
            return Math.abs(value - Math.rint(value)) < 1e-6;
        }
    }

    /** Where things go inside a panel's plot area. */
    private record Plot(double left, double top, double right, double bottom, Scale scale, List<Integer> categories,
            int seriesCount) {

        double categoryWidth() {
            return (this.right - this.left) / Math.max(1, this.categories.size());
        }

        double centre(int threads) {
            return this.left + categoryWidth() * (this.categories.indexOf(threads) + 0.5);
        }

        /** A series' position within its category: centred as a group, spread at most over half the category. */
        double x(int threads, int seriesIndex) {
            if (this.seriesCount < 2) {
                return centre(threads);
            }
            double step = Math.min(SERIES_STEP, 0.5 * categoryWidth() / (this.seriesCount - 1));
            return centre(threads) + (seriesIndex - (this.seriesCount - 1) / 2.0) * step;
        }

        double y(double ratio) {
            return this.bottom - (ratio - this.scale.min()) / (this.scale.max() - this.scale.min()) * (this.bottom - this.top);
        }
    }
}
