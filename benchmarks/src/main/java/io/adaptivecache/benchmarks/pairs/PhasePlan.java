package io.adaptivecache.benchmarks.pairs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.benchmarks.targets.BootDefaults;

/**
 * The load changes a phase run steps through, one sequence at a time. Each sequence changes one
 * dimension while the others stay put, so that what a client does in a phase is the answer to
 * that change alone:
 * <ul>
 * <li>{@code callers}: 1, 8, 50, 200, 4 callers on loopback, 100-byte values;</li>
 * <li>{@code rtt}: 8 callers through the delaying proxy at 0 ms, 1 ms and 0 ms each way (the
 * round trip changes under open connections, as when a network path degrades and recovers);</li>
 * <li>{@code size}: 50 callers on loopback, 100-byte, 100 KiB and 100-byte values;</li>
 * <li>{@code surge}: 8 callers on loopback for long enough that the production policy of the
 * Boot-built default settles, then a step to 200 callers held for a minute or more, on windows of
 * the production length, for the surge goal ({@link SurgeGoal}); its phases have lengths of their
 * own.</li>
 * </ul>
 *
 * @param name the sequence's name, as given to {@code --phases}
 * @param title what it steps, for reports
 * @param viaProxy whether its clients connect through the delaying proxy
 * @param phases its phases, in order
 * @param window the timeline's window, or {@code null} for the run's (the adaptive switcher's window)
 * @param step for a surge sequence the phase after the step, judged by the surge goal; -1 for another sequence
 */
public record PhasePlan(String name, String title, boolean viaProxy, List<Phase> phases, Duration window, int step) {

    /** The names {@code --phases} knows, in the order a run takes them. */
    public static final List<String> NAMES = List.of("callers", "rtt", "size", "surge");

    /** The surge sequence's default time at 8 callers: the production dwell (60 s) and trial (30 s), and half a minute to rest. */
    public static final Duration SURGE_SETTLE = Duration.ofSeconds(120);

    /** The surge sequence's default time at 200 callers. */
    public static final Duration SURGE_HOLD = Duration.ofSeconds(60);

    /**
     * Checks the plan.
     * @param name its name
     * @param title its title
     * @param viaProxy whether it runs through the proxy
     * @param phases its phases
     * @param window its timeline's window, or {@code null}
     * @param step the surge's judged phase, or -1
     */
    public PhasePlan {
        phases = List.copyOf(phases);
        if (step >= phases.size()) {
            throw new IllegalArgumentException(name + ": no phase " + (step + 1) + " to judge");
        }
    }

    /**
     * A sequence of phases the run's length each, on the run's window.
     * @param name its name
     * @param title its title
     * @param viaProxy whether it runs through the proxy
     * @param phases its phases
     */
    public PhasePlan(String name, String title, boolean viaProxy, List<Phase> phases) {
        this(name, title, viaProxy, phases, null, -1);
    }

    /**
     * A sequence by name; {@code surge} with its default lengths.
     * @param name {@code callers}, {@code rtt}, {@code size} or {@code surge}
     * @return the plan
     */
    public static PhasePlan named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "callers" -> new PhasePlan("callers", "caller count 1 → 8 → 50 → 200 → 4 (loopback, 100 B)", false,
                    List.of(new Phase(1, 100, 0), new Phase(8, 100, 0), new Phase(50, 100, 0), new Phase(200, 100, 0),
                            new Phase(4, 100, 0)));
            case "rtt" -> new PhasePlan("rtt", "round trip: proxy 0 ms → 1 ms → 0 ms each way (8 callers, 100 B)", true,
                    List.of(new Phase(8, 100, 0), new Phase(8, 100, 1), new Phase(8, 100, 0)));
            case "size" -> new PhasePlan("size", "value size 100 B → 100 KiB → 100 B (loopback, 50 callers)", false,
                    List.of(new Phase(50, 100, 0), new Phase(50, 100 * 1024, 0), new Phase(50, 100, 0)));
            case "surge" -> surge(SURGE_SETTLE, SURGE_HOLD);
            default -> throw new IllegalArgumentException("Unknown phase sequence '" + name + "'; known: " + NAMES);
        };
    }

    /**
     * The surge sequence: 8 callers, then 200, on loopback with 100-byte values, timed in windows
     * of the production length (the surge goal judges second by second).
     * @param settle how long the 8 callers run: long enough for the production policy to switch and keep its switch
     * @param hold how long the 200 callers run after the step
     * @return the plan
     */
    public static PhasePlan surge(Duration settle, Duration hold) {
        Duration window = BootDefaults.read().window();
        if (settle.compareTo(window) < 0 || hold.compareTo(window) < 0) {
            throw new IllegalArgumentException("A surge's phases need at least one window of " + window.toMillis() + " ms, were "
                    + settle.toMillis() + " ms and " + hold.toMillis() + " ms");
        }
        return new PhasePlan("surge", "surge: 8 callers for " + seconds(settle) + ", then 200 callers for " + seconds(hold)
                + " (loopback, 100 B)", false, List.of(new Phase(8, 100, 0, settle), new Phase(200, 100, 0, hold)), window, 1);
    }

    /**
     * The plans by names.
     * @param names sequence names
     * @return the plans
     */
    public static List<PhasePlan> named(List<String> names) {
        return named(names, SURGE_SETTLE, SURGE_HOLD);
    }

    /**
     * The plans by names, a surge with the lengths given.
     * @param names sequence names
     * @param surgeSettle a surge's time at 8 callers
     * @param surgeHold a surge's time at 200 callers
     * @return the plans
     */
    public static List<PhasePlan> named(List<String> names, Duration surgeSettle, Duration surgeHold) {
        List<PhasePlan> plans = new ArrayList<>();
        names.forEach(name -> plans.add(name.equalsIgnoreCase("surge") ? surge(surgeSettle, surgeHold) : named(name)));
        return plans;
    }

    /** @return whether this is a surge sequence, judged by the surge goal rather than the ratio goals */
    public boolean surge() {
        return this.step >= 0;
    }

    /**
     * A phase's length in this sequence.
     * @param index the phase
     * @param runLength the run's phase length
     * @return the phase's own length, or the run's
     */
    public Duration length(int index, Duration runLength) {
        Duration own = this.phases.get(index).length();
        return own != null ? own : runLength;
    }

    /**
     * The timeline's window.
     * @param runWindow the run's window
     * @return this sequence's own, or the run's
     */
    public Duration window(Duration runWindow) {
        return this.window != null ? this.window : runWindow;
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    /**
     * The value sizes its phases use (each needs its key space filled).
     * @return the sizes
     */
    public List<Integer> valueSizes() {
        return this.phases.stream().map(Phase::valueBytes).distinct().toList();
    }

    /**
     * One phase.
     * @param callers closed-loop callers
     * @param valueBytes value size
     * @param delayMillis the proxy's delay each way (only for a sequence through the proxy)
     * @param length its own length, or {@code null} for the run's
     */
    public record Phase(int callers, int valueBytes, long delayMillis, Duration length) {

        /**
         * A phase the run's length.
         * @param callers closed-loop callers
         * @param valueBytes value size
         * @param delayMillis the proxy's delay each way
         */
        public Phase(int callers, int valueBytes, long delayMillis) {
            this(callers, valueBytes, delayMillis, null);
        }

        /**
         * The phase as a workload, for verdict rows and thresholds by caller count.
         * @param backend the server
         * @param viaProxy whether the sequence runs through the proxy
         * @return the workload
         */
        Workload workload(Backend backend, boolean viaProxy) {
            return new Workload(backend, viaProxy && this.delayMillis > 0 ? Network.DELAYED
                    : Network.LOOPBACK, this.valueBytes, this.callers);
        }

        /**
         * A short label.
         * @param viaProxy whether the sequence runs through the proxy
         * @return for example {@code 50 callers, 100 KiB} or {@code proxy 1 ms}
         */
        String label(boolean viaProxy) {
            String label = this.callers + (this.callers == 1 ? " caller, " : " callers, ") + Workload.sizeLabel(this.valueBytes);
            return viaProxy ? label + ", proxy " + this.delayMillis + " ms" : label;
        }
    }
}
