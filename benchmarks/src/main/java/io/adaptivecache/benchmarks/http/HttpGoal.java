package io.adaptivecache.benchmarks.http;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.adaptivecache.benchmarks.http.app.AppVariant;
import io.adaptivecache.benchmarks.pairs.GoalSet;

/**
 * One comparison of the end-to-end benchmark: a numerator application against a denominator,
 * on requests per second (higher is better) or p99 latency (lower is better), with a goal per
 * connection count; a connection count without one is reported for information.
 *
 * @param label what the row compares, for tables and charts
 * @param numerator the application measured (a variant's id, {@link GoalSet#TWIN} for the A/A twin)
 * @param denominator the application it is divided by
 * @param measure what is compared
 * @param thresholds the goal per connection count
 * @param control whether this is an A/A control (one variant against itself in a second JVM)
 */
record HttpGoal(String label, String numerator, String denominator, Measure measure, Map<Integer, Double> thresholds,
        boolean control) {

    private static final String SPRING = AppVariant.SPRING_DEFAULTS.id();
    private static final String POOL = AppVariant.SPRING_POOL.id();
    private static final String ADAPTIVE = AppVariant.ADAPTIVE.id();
    private static final String NEAR = AppVariant.ADAPTIVE_NEAR.id();

    HttpGoal {
        thresholds = Map.copyOf(thresholds);
    }

    /**
     * The benchmark's comparisons: adaptive-cache's defaults reach 1.1x the requests per second
     * of spring-boot-starter-data-redis's defaults at 64 and 256 connections with a p99 no worse
     * (≤ 1.0x), and 1.5x with the near cache at 16, 64 and 256; Boot's pool against its default, and
     * adaptive-cache against Boot's pool, for information; the A/A control on Boot's defaults.
     * @return the comparisons, in report order
     */
    static List<HttpGoal> all() {
        Map<Integer, Double> faster = Map.of(64, 1.1, 256, 1.1);
        Map<Integer, Double> noWorse = Map.of(64, 1.0, 256, 1.0);
        Map<Integer, Double> near = Map.of(16, 1.5, 64, 1.5, 256, 1.5);
        List<HttpGoal> goals = new ArrayList<>();
        for (Measure measure : Measure.values()) {
            boolean rps = measure == Measure.REQUESTS_PER_SECOND;
            goals.add(new HttpGoal(ADAPTIVE + " ÷ " + SPRING, ADAPTIVE, SPRING, measure, rps ? faster : noWorse, false));
            goals.add(new HttpGoal(NEAR + " ÷ " + SPRING, NEAR, SPRING, measure, rps ? near : Map.of(), false));
            goals.add(new HttpGoal(POOL + " ÷ " + SPRING, POOL, SPRING, measure, Map.of(), false));
            goals.add(new HttpGoal(ADAPTIVE + " ÷ " + POOL, ADAPTIVE, POOL, measure, Map.of(), false));
            goals.add(new HttpGoal("A/A: " + SPRING + " ÷ " + SPRING + " in a second JVM", SPRING + GoalSet.TWIN, SPRING, measure,
                    Map.of(), true));
        }
        return goals;
    }

    /**
     * The comparisons whose applications are all among those selected.
     * @param goals the comparisons
     * @param apps the selected application ids; empty selects all
     * @return those that can be measured
     */
    static List<HttpGoal> among(List<HttpGoal> goals, List<String> apps) {
        if (apps.isEmpty()) {
            return goals;
        }
        return goals.stream().filter(goal -> apps.contains(goal.numerator()) && apps.contains(goal.denominator())).toList();
    }

    /**
     * The applications a set of comparisons needs, each once: Boot's variants, adaptive-cache's, then twins.
     * @param goals the comparisons
     * @return application ids
     */
    static List<String> apps(List<HttpGoal> goals) {
        Set<String> apps = new LinkedHashSet<>();
        for (AppVariant variant : AppVariant.values()) {
            if (goals.stream().anyMatch(goal -> goal.numerator().equals(variant.id()) || goal.denominator().equals(variant.id()))) {
                apps.add(variant.id());
            }
        }
        goals.forEach(goal -> {
            apps.add(goal.numerator());
            apps.add(goal.denominator());
        });
        return List.copyOf(apps);
    }

    /**
     * The goal at a connection count.
     * @param connections the count
     * @return the threshold, or {@code NaN} for none
     */
    double threshold(int connections) {
        return this.thresholds.getOrDefault(connections, Double.NaN);
    }

    /**
     * The goal as people write it.
     * @param connections the count
     * @return for example {@code ≥ 1.1}, or empty for none
     */
    String goalText(int connections) {
        if (this.control) {
            return "contains 1.0";
        }
        double threshold = threshold(connections);
        if (Double.isNaN(threshold)) {
            return "";
        }
        return (this.measure.higherIsBetter() ? "≥ " : "≤ ") + threshold;
    }

    /** What a ratio compares. */
    enum Measure {

        /** Responses per second; higher is better. */
        REQUESTS_PER_SECOND("requests per second", true),

        /** 99th percentile latency; lower is better (numerator ÷ denominator). */
        P99("p99 latency (lower is better)", false);

        private final String label;
        private final boolean higherIsBetter;

        Measure(String label, boolean higherIsBetter) {
            this.label = label;
            this.higherIsBetter = higherIsBetter;
        }

        /** @return for tables */
        String label() {
            return this.label;
        }

        /** @return whether a larger ratio is the better one */
        boolean higherIsBetter() {
            return this.higherIsBetter;
        }

        /**
         * A slice's figure.
         * @param slice the slice
         * @return its requests per second or its p99
         */
        double of(HttpSlice slice) {
            return this == REQUESTS_PER_SECOND ? slice.requestsPerSecond() : slice.p99Micros();
        }
    }
}
