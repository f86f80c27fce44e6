package io.adaptivecache.benchmarks.pairs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;

/**
 * The load changes a phase run steps through, one sequence at a time. Each sequence changes one
 * dimension while the others stay put, so that what a client does in a phase is the answer to
 * that change alone:
 * <ul>
 * <li>{@code callers}: 1, 8, 50, 200, 4 callers on loopback, 100-byte values;</li>
 * <li>{@code rtt}: 8 callers through the delaying proxy at 0 ms, 1 ms and 0 ms each way (the
 * round trip changes under open connections, as when a network path degrades and recovers);</li>
 * <li>{@code size}: 50 callers on loopback, 100-byte, 100 KiB and 100-byte values.</li>
 * </ul>
 *
 * @param name the sequence's name, as given to {@code --phases}
 * @param title what it steps, for reports
 * @param viaProxy whether its clients connect through the delaying proxy
 * @param phases its phases, in order
 */
public record PhasePlan(String name, String title, boolean viaProxy, List<Phase> phases) {

    /** The names {@code --phases} knows, in the order a run takes them. */
    public static final List<String> NAMES = List.of("callers", "rtt", "size");

    /**
     * Checks the plan.
     * @param name its name
     * @param title its title
     * @param viaProxy whether it runs through the proxy
     * @param phases its phases
     */
    public PhasePlan {
        phases = List.copyOf(phases);
    }

    /**
     * A sequence by name.
     * @param name {@code callers}, {@code rtt} or {@code size}
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
            default -> throw new IllegalArgumentException("Unknown phase sequence '" + name + "'; known: " + NAMES);
        };
    }

    /**
     * The plans by names.
     * @param names sequence names
     * @return the plans
     */
    public static List<PhasePlan> named(List<String> names) {
        List<PhasePlan> plans = new ArrayList<>();
        names.forEach(name -> plans.add(named(name)));
        return plans;
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
     */
    public record Phase(int callers, int valueBytes, long delayMillis) {

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
