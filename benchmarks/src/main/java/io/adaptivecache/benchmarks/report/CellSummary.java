package io.adaptivecache.benchmarks.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToDoubleFunction;

import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Workload;

/**
 * One target on one workload over all rounds: medians, and the spread of throughput.
 *
 * @param target the target's id
 * @param workload the workload
 * @param rounds the rounds' results, in round order
 */
public record CellSummary(String target, Workload workload, List<CellResult> rounds) {

    /** @return median throughput */
    public double opsPerSecond() {
        return median(CellResult::opsPerSecond);
    }

    /** @return lowest throughput of the rounds */
    public double minOpsPerSecond() {
        return this.rounds.stream().mapToDouble(CellResult::opsPerSecond).min().orElse(0);
    }

    /** @return highest throughput of the rounds */
    public double maxOpsPerSecond() {
        return this.rounds.stream().mapToDouble(CellResult::opsPerSecond).max().orElse(0);
    }

    /** @return median of the rounds' p50 */
    public double p50Micros() {
        return median(CellResult::p50Micros);
    }

    /** @return median of the rounds' p99 */
    public double p99Micros() {
        return median(CellResult::p99Micros);
    }

    /** @return median of the rounds' p99.9 */
    public double p999Micros() {
        return median(CellResult::p999Micros);
    }

    /** @return median client CPU, in cores */
    public double cpuCores() {
        return median(CellResult::cpuCores);
    }

    /** @return median client CPU per call */
    public double cpuMicrosPerOperation() {
        return median(CellResult::cpuMicrosPerOperation);
    }

    /**
     * Median commands per socket write of a client's Redis connections, each round's over its measured window.
     * @return the median over the rounds that counted any write, or NaN for a client without the counters
     */
    public double commandsPerWrite() {
        List<Double> values = new ArrayList<>();
        this.rounds.stream().mapToDouble(CellResult::commandsPerWrite).filter(value -> !Double.isNaN(value)).forEach(values::add);
        return median(values);
    }

    /** @return failed calls over all rounds */
    public long errors() {
        return this.rounds.stream().mapToLong(CellResult::errors).sum();
    }

    /** @return the first failure seen, or {@code null} */
    public String firstError() {
        return this.rounds.stream().map(CellResult::firstError).filter(error -> error != null).findFirst().orElse(null);
    }

    private double median(ToDoubleFunction<CellResult> figure) {
        List<Double> values = new ArrayList<>();
        this.rounds.forEach(round -> values.add(figure.applyAsDouble(round)));
        return median(values);
    }

    /**
     * The median; the mean of the middle two for an even count.
     * @param values the values
     * @return the median, or NaN when there are none
     */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}
