package io.adaptivecache.benchmarks.pairs;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.imageio.ImageIO;

import io.adaptivecache.benchmarks.load.Workload;

// The colours and font family of RatioCharts, so that the pages of one report look alike.
import static io.adaptivecache.benchmarks.pairs.RatioCharts.FAMILY;
import static io.adaptivecache.benchmarks.pairs.RatioCharts.FRAME;
import static io.adaptivecache.benchmarks.pairs.RatioCharts.GRID;
import static io.adaptivecache.benchmarks.pairs.RatioCharts.INK;
import static io.adaptivecache.benchmarks.pairs.RatioCharts.MUTED;

/**
 * A timeline PNG of one sequence on one backend: a panel per target, time across (the phases one
 * after the other, their boundaries dashed and labelled), calls per second up on a scale shared
 * by every panel. Each cycle is a thin grey line and the median over the kept cycles a coloured
 * one. An adaptive target's panel adds a strip per cycle under the plot, coloured by the strategy
 * it ran in each window, with a black tick at each switch, and lists every cycle's switches with
 * their reasons, a line per cycle.
 */
final class PhaseCharts {

    private static final int PANEL_WIDTH = 600;
    /** A panel's height when its adaptive target ran one cycle; each further cycle adds a strip and a {@link #NOTE_LINE}. */
    static final int PANEL_HEIGHT = 250;
    /** The height of a line of a panel's switch notes. */
    static final int NOTE_LINE = 13;
    /** The height of a cycle's strategy strip. */
    static final int STRIP = 7;
    /** Space around the panels. */
    static final int MARGIN = 20;
    /** Space between panels. */
    static final int GAP = 18;
    private static final int COLUMNS = 2;
    /** The title and key above the panels. */
    static final int HEADER = 70;
    private static final int PLOT_LEFT = 58;
    private static final int PLOT_RIGHT = 14;
    private static final int PLOT_TOP = 46;
    private static final Color CYCLE = new Color(0xB8B8B8);
    private static final Color MEDIAN = new Color(0x0072B2);
    private static final Color ADAPTIVE = new Color(0xD55E00);
    private static final Color[] STRATEGIES = { new Color(0x56B4E9), new Color(0x009E73), new Color(0xE69F00), new Color(0xCC79A7),
        new Color(0xF0E442), new Color(0x0072B2), new Color(0x999999) };
    private static final Font TITLE = new Font(FAMILY, Font.BOLD, 18);
    private static final Font PANEL_TITLE = new Font(FAMILY, Font.BOLD, 14);
    private static final Font SMALL = new Font(FAMILY, Font.PLAIN, 11);

    private PhaseCharts() {
    }

    /**
     * Draws and writes the timeline.
     * @param file the PNG
     * @param title its title
     * @param plan the sequence
     * @param slices its phases, every target and cycle
     * @param targets the panels' targets, in order
     * @param window the timeline's window
     * @param limit the disturbance limit: disturbed phases are left out of the median
     * @throws IOException if it cannot be written
     */
    static void write(Path file, String title, PhasePlan plan, List<PhaseSlice> slices, List<String> targets, Duration window,
            double limit) throws IOException {
        BufferedImage image = render(title, plan, slices, targets, window, limit);
        try (OutputStream out = Files.newOutputStream(file)) {
            if (!ImageIO.write(image, "png", out)) {
                throw new IOException("No PNG writer in this JVM");
            }
        }
    }

    static BufferedImage render(String title, PhasePlan plan, List<PhaseSlice> slices, List<String> targets, Duration window,
            double limit) {
        List<String> shown = targets.stream().filter(target -> slices.stream().anyMatch(slice -> slice.target().equals(target))).toList();
        int rows = Math.max(1, (shown.size() + COLUMNS - 1) / COLUMNS);
        int width = 2 * MARGIN + COLUMNS * PANEL_WIDTH + (COLUMNS - 1) * GAP;
        int panelHeight = panelHeight(slices);
        int height = HEADER + rows * (panelHeight + GAP) + MARGIN;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setColor(INK);
            g.setFont(TITLE);
            g.drawString(title, MARGIN, MARGIN + 18);
            Map<String, Color> colours = strategyColours(slices);
            drawKey(g, colours, MARGIN, MARGIN + 44);
            double top = 0;
            for (PhaseSlice slice : slices) {
                for (double rate : slice.rates()) {
                    top = Math.max(top, rate);
                }
            }
            top = niceCeiling(top);
            int[] offsets = offsets(plan.phases().size(), slices);
            for (int i = 0; i < shown.size(); i++) {
                int left = MARGIN + (i % COLUMNS) * (PANEL_WIDTH + GAP);
                int panelTop = HEADER + (i / COLUMNS) * (panelHeight + GAP);
                String target = shown.get(i);
                drawPanel(g, plan, slices.stream().filter(slice -> slice.target().equals(target)).toList(), target, left, panelTop,
                        panelHeight, top, window, limit, colours, offsets);
            }
        }
        finally {
            g.dispose();
        }
        return image;
    }

    /**
     * Every panel's height: room for a strategy strip and a line of switch notes per cycle of the adaptive targets,
     * so that their plots keep their height however many cycles ran, and panels side by side stay level.
     * @param slices the sequence's slices, every target
     * @return the height in pixels
     */
    static int panelHeight(List<PhaseSlice> slices) {
        long cycles = slices.stream().filter(slice -> !slice.strategy().equals("-")).mapToInt(PhaseSlice::cycle).distinct().count();
        return PANEL_HEIGHT + (int) Math.max(0, cycles - 1) * (STRIP + 1 + NOTE_LINE);
    }

    /**
     * An adaptive target's switches, a line per cycle in cycle order: each switch's phase and time into it, the
     * policy's reason and the strategy it switched to.
     * @param slices the target's slices of one sequence
     * @return for example {@code cycle 2: p1+61.2s blocking fits→POOLED(20)  p2+2.2s pool contention→MULTI(2)}
     */
    static List<String> switchNotes(List<PhaseSlice> slices) {
        List<String> notes = new ArrayList<>();
        slices.stream().mapToInt(PhaseSlice::cycle).distinct().sorted().forEach(cycle -> {
            StringBuilder note = new StringBuilder("cycle " + cycle + ":");
            slices.stream().filter(slice -> slice.cycle() == cycle).sorted((a, b) -> Integer.compare(a.phaseIndex(), b.phaseIndex()))
                    .forEach(slice -> slice.switches().forEach(change -> note.append(String.format(Locale.ROOT, " p%d+%.1fs %s→%s ",
                            slice.phaseIndex() + 1, change.atMillis() / 1000.0, abbreviate(change.reason()), change.to()))));
            notes.add(note.toString().endsWith(":") ? note + " no switch" : note.toString().stripTrailing());
        });
        return notes;
    }

    /** One line of the key: a short stroke in the line's colour and width, then what it stands for. */
    private static void keyLine(Graphics2D g, Color colour, float width, String text, int at, int y) {
        g.setColor(colour);
        g.setStroke(new BasicStroke(width));
        g.draw(new Line2D.Double(at, y - 4, at + 22, y - 4));
        g.setColor(MUTED);
        g.drawString(text, at + 26, y);
    }

    private static void drawKey(Graphics2D g, Map<String, Color> colours, int x, int y) {
        g.setFont(SMALL);
        int at = x;
        keyLine(g, CYCLE, 1.2f, "one cycle", at, y);
        at += 90;
        keyLine(g, MEDIAN, 2.4f, "median over kept cycles (adaptive: orange)", at, y);
        at += 290;
        g.drawString("strategy per window, one strip per cycle, | = switch:", at, y);
        at += 300;
        for (Map.Entry<String, Color> entry : colours.entrySet()) {
            g.setColor(entry.getValue());
            g.fillRect(at, y - 9, 14, 10);
            g.setColor(MUTED);
            g.drawString(entry.getKey(), at + 18, y);
            at += 26 + g.getFontMetrics().stringWidth(entry.getKey()) + 10;
        }
    }

    /**
     * Where each phase starts on the time axis, in windows, so that phases of different lengths (a
     * surge's) each take their own width and every panel lines up: a phase takes as many windows as
     * its longest slice of any target.
     * @param phases the sequence's phase count
     * @param slices its slices, every target
     * @return the first window of each phase, then the total
     */
    static int[] offsets(int phases, List<PhaseSlice> slices) {
        int[] offsets = new int[phases + 1];
        for (int p = 0; p < phases; p++) {
            int index = p;
            int windows = slices.stream().filter(slice -> slice.phaseIndex() == index).mapToInt(slice -> slice.rates().length).max()
                    .orElse(1);
            offsets[p + 1] = offsets[p] + windows;
        }
        return offsets;
    }

    private static void drawPanel(Graphics2D g, PhasePlan plan, List<PhaseSlice> slices, String target, int left, int top, int height,
            double yMax, Duration window, double limit, Map<String, Color> colours, int[] offsets) {
        g.setColor(FRAME);
        g.setStroke(new BasicStroke(1f));
        g.drawRect(left, top, PANEL_WIDTH, height);
        boolean adaptive = slices.stream().anyMatch(slice -> !slice.strategy().equals("-"));
        g.setColor(INK);
        g.setFont(PANEL_TITLE);
        g.drawString(target, left + 10, top + 18);
        int cycles = (int) slices.stream().mapToInt(PhaseSlice::cycle).distinct().count();
        int strips = adaptive ? cycles * (STRIP + 1) + 4 : 0;
        int notes = adaptive ? cycles * NOTE_LINE + 3 : 0;
        double plotLeft = left + PLOT_LEFT;
        double plotRight = left + PANEL_WIDTH - PLOT_RIGHT;
        double plotTop = top + PLOT_TOP;
        double plotBottom = top + height - 22 - strips - notes;
        int phases = plan.phases().size();
        int total = offsets[phases];
        double step = (plotRight - plotLeft) / total;
        // Grid and axis labels.
        g.setFont(SMALL);
        int ticks = ticks(yMax);
        for (int tick = 0; tick <= ticks; tick++) {
            double value = yMax * tick / ticks;
            double y = plotBottom - (plotBottom - plotTop) * tick / ticks;
            g.setColor(GRID);
            g.draw(new Line2D.Double(plotLeft, y, plotRight, y));
            g.setColor(MUTED);
            String label = String.format(Locale.ROOT, value % 1000 == 0 ? "%.0fk" : "%.1fk", value / 1000);
            g.drawString(label, (float) (plotLeft - 8 - g.getFontMetrics().stringWidth(label)), (float) y + 4);
        }
        // Phase boundaries and labels.
        g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 4f}, 0f));
        for (int p = 0; p < phases; p++) {
            double x = plotLeft + offsets[p] * step;
            if (p > 0) {
                g.setColor(MUTED);
                g.draw(new Line2D.Double(x, plotTop - 14, x, plotBottom));
            }
            g.setColor(MUTED);
            String label = shortLabel(plan, p);
            g.drawString(label, (float) (x + 4), (float) plotTop - 4);
        }
        g.setStroke(new BasicStroke(1f));
        boolean even = true;
        for (int p = 1; p < phases; p++) {
            even &= offsets[p + 1] - offsets[p] == offsets[1];
        }
        StringBuilder lengths = new StringBuilder();
        for (int p = 0; p < (even ? 1 : phases); p++) {
            lengths.append(p == 0 ? "" : " + ").append(String.format(Locale.ROOT, "%.0f s", (offsets[p + 1] - offsets[p])
                    * window.toMillis() / 1000.0));
        }
        String seconds = lengths + (even ? " per phase" : "") + ", window " + window.toMillis() + " ms";
        g.drawString(seconds, (float) (plotRight - g.getFontMetrics().stringWidth(seconds)), top + 18);
        // One line per cycle, then the median over the kept cycles.
        Map<Integer, double[]> byCycle = new LinkedHashMap<>();
        Map<Integer, String[]> strategiesByCycle = new LinkedHashMap<>();
        Map<Integer, List<Double>> switchesByCycle = new LinkedHashMap<>();
        Map<Integer, Boolean> keptByCycle = new LinkedHashMap<>();
        for (PhaseSlice slice : slices) {
            double[] rates = byCycle.computeIfAbsent(slice.cycle(), any -> new double[total]);
            String[] strategies = strategiesByCycle.computeIfAbsent(slice.cycle(), any -> new String[total]);
            int offset = offsets[slice.phaseIndex()];
            for (int i = 0; i < slice.rates().length && offset + i < total; i++) {
                rates[offset + i] = slice.rates()[i];
                strategies[offset + i] = slice.strategies()[i];
            }
            for (PhaseSlice.Switch change : slice.switches()) {
                switchesByCycle.computeIfAbsent(slice.cycle(), any -> new ArrayList<>())
                        .add(offset + change.atMillis() / (double) window.toMillis());
            }
            keptByCycle.merge(slice.cycle(), !slice.disturbed(limit) && slice.errors() == 0, Boolean::logicalAnd);
        }
        for (double[] rates : byCycle.values()) {
            drawLine(g, rates, plotLeft, step, plotBottom, plotTop, yMax, CYCLE, 1f);
        }
        if (!keptByCycle.containsValue(Boolean.TRUE)) {
            g.setColor(MUTED);
            g.drawString("no cycle kept (all disturbed)", (float) plotLeft + 8, (float) plotTop + 14);
        }
        double[] median = new double[total];
        for (int i = 0; i < total && keptByCycle.containsValue(Boolean.TRUE); i++) {
            List<Double> values = new ArrayList<>();
            for (Map.Entry<Integer, double[]> cycle : byCycle.entrySet()) {
                if (keptByCycle.getOrDefault(cycle.getKey(), true)) {
                    values.add(cycle.getValue()[i]);
                }
            }
            median[i] = values.isEmpty() ? 0 : Interval.of(values).median();
        }
        if (keptByCycle.containsValue(Boolean.TRUE)) {
            drawLine(g, median, plotLeft, step, plotBottom, plotTop, yMax, adaptive ? ADAPTIVE : MEDIAN, 2.4f);
        }
        if (!adaptive) {
            return;
        }
        // Strategy strips with switch ticks.
        double stripTop = plotBottom + 6;
        for (Map.Entry<Integer, String[]> cycle : strategiesByCycle.entrySet()) {
            String[] strategies = cycle.getValue();
            for (int i = 0; i < total; i++) {
                if (strategies[i] == null) {
                    continue;
                }
                g.setColor(colours.getOrDefault(strategies[i], Color.LIGHT_GRAY));
                g.fill(new Rectangle2D.Double(plotLeft + i * step, stripTop, step + 0.5, STRIP));
            }
            g.setColor(INK);
            for (double at : switchesByCycle.getOrDefault(cycle.getKey(), List.of())) {
                double x = plotLeft + at * step;
                g.draw(new Line2D.Double(x, stripTop - 1, x, stripTop + STRIP + 1));
            }
            stripTop += STRIP + 1;
        }
        // Every cycle's switches, with reasons, a line each: the last cycle's on the panel's bottom line.
        g.setColor(MUTED);
        g.setFont(SMALL);
        List<String> lines = switchNotes(slices);
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            while (g.getFontMetrics().stringWidth(text) > PANEL_WIDTH - 20 && text.length() > 10) {
                text = text.substring(0, text.length() - 2);
            }
            g.drawString(text, left + 10, (float) (top + height - 8 - (lines.size() - 1 - i) * NOTE_LINE));
        }
    }

    private static void drawLine(Graphics2D g, double[] values, double left, double step, double bottom, double top, double yMax,
            Color colour, float width) {
        Path2D.Double path = new Path2D.Double();
        for (int i = 0; i < values.length; i++) {
            double x = left + (i + 0.5) * step;
            double y = bottom - (bottom - top) * Math.min(1, values[i] / yMax);
            if (i == 0) {
                path.moveTo(x, y);
            }
            else {
                path.lineTo(x, y);
            }
        }
        g.setColor(colour);
        g.setStroke(new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(path);
        g.setStroke(new BasicStroke(1f));
    }

    private static String shortLabel(PhasePlan plan, int phase) {
        PhasePlan.Phase p = plan.phases().get(phase);
        return switch (plan.name()) {
            case "rtt" -> p.delayMillis() + " ms";
            case "size" -> Workload.sizeLabel(p.valueBytes());
            default -> p.callers() + (p.callers() == 1 ? " caller" : " callers");
        };
    }

    private static String abbreviate(String reason) {
        return switch (reason) {
            case "CONNECTION_SATURATED" -> "saturated";
            case "CONNECTIONS_IDLE" -> "idle";
            case "BLOCKING_FITS" -> "blocking fits";
            case "POOL_CONTENTION" -> "pool contention";
            case "POOL_SATURATED" -> "pool saturated";
            case "ROLLBACK" -> "rollback";
            default -> reason.toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }

    private static Map<String, Color> strategyColours(List<PhaseSlice> slices) {
        Map<String, Color> colours = new LinkedHashMap<>();
        slices.stream().flatMap(slice -> Arrays.stream(slice.strategies())).filter(strategy -> !strategy.equals("-"))
                .distinct().sorted().forEach(strategy -> colours.put(strategy, STRATEGIES[colours.size() % STRATEGIES.length]));
        return colours;
    }

    /** Grid lines at round values: a top of 2.5 or 5 (times a power of ten) in five steps, 1 or 2 in four. */
    static int ticks(double top) {
        double mantissa = top / Math.pow(10, Math.floor(Math.log10(top)));
        return Math.abs(mantissa - 2.5) < 1e-9 || Math.abs(mantissa - 5) < 1e-9 ? 5 : 4;
    }

    private static double niceCeiling(double value) {
        if (value <= 0) {
            return 1000;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= value) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
