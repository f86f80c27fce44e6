package io.adaptivecache.benchmarks.pairs;

import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A timeline names the switches of every cycle, not only the first one's. */
class PhaseChartsTests {

    private static final PhasePlan SURGE = PhasePlan.surge(Duration.ofSeconds(10), Duration.ofSeconds(6));

    private static final List<String> TARGETS = List.of("boot-default", "ours-multi@io_uring");

    @Test
    void theNotesListTheSwitchesOfEveryCycleALineEach() {
        List<String> notes = PhaseCharts.switchNotes(surge().stream().filter(slice -> slice.target().equals("boot-default")).toList());

        assertThat(notes).containsExactly("cycle 1: p1+4.3s blocking fits→POOLED(20)  p2+1.2s pool contention→MULTI(2)",
                "cycle 2: p1+4.6s blocking fits→POOLED(20)  p2+1.4s pool contention→MULTI(2)", "cycle 3: no switch");
    }

    @Test
    void theSurgeTimelineHasRoomForAndDrawsALineOfSwitchesPerCycle() {
        BufferedImage image = PhaseCharts.render("Redis · surge", SURGE, surge(), TARGETS, Duration.ofSeconds(1), 1.0);

        int panelHeight = PhaseCharts.PANEL_HEIGHT + 2 * (PhaseCharts.STRIP + 1 + PhaseCharts.NOTE_LINE);
        assertThat(PhaseCharts.panelHeight(surge())).isEqualTo(panelHeight);
        assertThat(image.getHeight()).isEqualTo(PhaseCharts.HEADER + panelHeight + PhaseCharts.GAP + PhaseCharts.MARGIN);
        // The adaptive target's panel is the first: its three note lines end on its bottom line, one above the other.
        int bottom = PhaseCharts.HEADER + panelHeight - 8;
        for (int line = 0; line < 3; line++) {
            int baseline = bottom - line * PhaseCharts.NOTE_LINE;
            assertThat(inkBetween(image, PhaseCharts.MARGIN + 10, PhaseCharts.MARGIN + 300, baseline - 7, baseline))
                    .as("text on the note line %d above the bottom", line).isPositive();
        }
    }

    /** Three cycles of a surge: the adaptive target switches twice in the first two cycles, not at all in the third. */
    private static List<PhaseSlice> surge() {
        List<PhaseSlice> slices = new ArrayList<>();
        for (int cycle = 1; cycle <= 3; cycle++) {
            for (String target : TARGETS) {
                boolean adaptive = target.equals("boot-default");
                for (int phase = 0; phase < 2; phase++) {
                    int windows = phase == 0 ? 10 : 6;
                    double[] rates = new double[windows];
                    Arrays.fill(rates, phase == 0 ? 80_000 : 180_000);
                    String[] strategies = new String[windows];
                    Arrays.fill(strategies, adaptive ? (phase == 0 ? "POOLED(20)" : "MULTI(2)") : "-");
                    List<PhaseSlice.Switch> switches = !adaptive || cycle == 3 ? List.of() : phase == 0
                            ? List.of(new PhaseSlice.Switch(4_000 + cycle * 300, "POOLED(20)", "BLOCKING_FITS"))
                            : List.of(new PhaseSlice.Switch(1_000 + cycle * 200, "MULTI(2)", "POOL_CONTENTION"));
                    slices.add(new PhaseSlice(Backend.REDIS, "surge", phase, SURGE.phases().get(phase).workload(Backend.REDIS, false),
                            cycle, 0, target, 100_000, 100_000, 0, 10, 0, adaptive ? "MULTI(2)" : "-", switches, rates, strategies, 0,
                            0, ""));
                }
            }
        }
        return slices;
    }

    private static int inkBetween(BufferedImage image, int left, int right, int top, int bottom) {
        int ink = 0;
        for (int y = top; y <= bottom; y++) {
            for (int x = left; x < right; x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) != 0xFFFFFF) {
                    ink++;
                }
            }
        }
        return ink;
    }
}
