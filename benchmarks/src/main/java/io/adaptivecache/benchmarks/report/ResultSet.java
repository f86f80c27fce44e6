package io.adaptivecache.benchmarks.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;

import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Workload;

/** Every cell of a run, in the order measured, and the summaries and ratios drawn from them. */
public final class ResultSet {

    private final List<CellResult> cells = new ArrayList<>();
    private final List<String> targetOrder;

    /**
     * Creates an empty set.
     * @param targetOrder target ids in the order tables and charts list them
     */
    public ResultSet(List<String> targetOrder) {
        this.targetOrder = List.copyOf(new LinkedHashSet<>(targetOrder));
    }

    /**
     * Adds a measured cell.
     * @param cell the cell
     */
    public synchronized void add(CellResult cell) {
        this.cells.add(cell);
    }

    /** @return the cells, in the order measured */
    public synchronized List<CellResult> cells() {
        return List.copyOf(this.cells);
    }

    /** @return the workload groups measured, in the order first measured */
    public List<Workload.Group> groups() {
        Set<Workload.Group> groups = new LinkedHashSet<>();
        cells().forEach(cell -> groups.add(cell.workload().group()));
        return List.copyOf(groups);
    }

    /**
     * The thread counts measured in a group.
     * @param group the group
     * @return ascending
     */
    public List<Integer> threads(Workload.Group group) {
        Set<Integer> threads = new TreeSet<>();
        cells().stream().filter(cell -> cell.workload().group().equals(group)).forEach(cell -> threads.add(cell.workload().threads()));
        return List.copyOf(threads);
    }

    /**
     * The targets measured in a group, in catalog order.
     * @param group the group
     * @return target ids
     */
    public List<String> targets(Workload.Group group) {
        Set<String> measured = new LinkedHashSet<>();
        cells().stream().filter(cell -> cell.workload().group().equals(group)).forEach(cell -> measured.add(cell.target()));
        List<String> ordered = new ArrayList<>();
        this.targetOrder.stream().filter(measured::contains).forEach(ordered::add);
        measured.stream().filter(id -> !ordered.contains(id)).forEach(ordered::add);
        return ordered;
    }

    /**
     * One target on one workload over all rounds.
     * @param target the target's id
     * @param workload the workload
     * @return the summary, empty if not measured
     */
    public Optional<CellSummary> summary(String target, Workload workload) {
        List<CellResult> rounds = cells().stream().filter(cell -> cell.target().equals(target) && cell.workload().equals(workload))
                .toList();
        return rounds.isEmpty() ? Optional.empty() : Optional.of(new CellSummary(target, workload, rounds));
    }

    /**
     * A comparison on one workload: the ratio in each round where every target ran, and their median.
     * @param comparison the comparison
     * @param workload the workload
     * @return the median ratio and the per-round ratios, empty if a target was not measured
     */
    public Optional<Ratio> ratio(Comparison comparison, Workload workload) {
        Workload below = new Workload(comparison.denominatorBackend(), workload.network(), workload.valueBytes(), workload.threads());
        Map<Integer, Map<String, Double>> byRound = new LinkedHashMap<>();
        Map<Integer, Map<String, Double>> belowByRound = new LinkedHashMap<>();
        for (CellResult cell : cells()) {
            if (cell.workload().equals(workload)) {
                byRound.computeIfAbsent(cell.round(), round -> new LinkedHashMap<>()).put(cell.target(), cell.opsPerSecond());
            }
            if (cell.workload().equals(below)) {
                belowByRound.computeIfAbsent(cell.round(), round -> new LinkedHashMap<>()).put(cell.target(), cell.opsPerSecond());
            }
        }
        List<Double> ratios = new ArrayList<>();
        for (Map.Entry<Integer, Map<String, Double>> entry : byRound.entrySet()) {
            Double numerator = entry.getValue().get(comparison.numerator());
            Map<String, Double> round = belowByRound.getOrDefault(entry.getKey(), Map.of());
            OptionalDouble best = comparison.denominators().stream().filter(round::containsKey).mapToDouble(round::get).max();
            boolean complete = comparison.denominators().stream().allMatch(round::containsKey);
            if (numerator != null && complete && best.isPresent() && best.getAsDouble() > 0) {
                ratios.add(numerator / best.getAsDouble());
            }
        }
        return ratios.isEmpty() ? Optional.empty() : Optional.of(new Ratio(CellSummary.median(ratios), Collections.unmodifiableList(ratios)));
    }

    /**
     * A ratio on one workload.
     *
     * @param median the median over rounds
     * @param rounds the ratio in each round
     */
    public record Ratio(double median, List<Double> rounds) {
    }
}
