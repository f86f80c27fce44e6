package io.adaptivecache.benchmarks.load;

/**
 * The figures of one target on one workload in one round.
 *
 * @param target the target's id
 * @param workload the workload
 * @param round the round, from 1
 * @param operations calls that started and completed inside the measured window
 * @param misses gets among them that found no value (the key space is filled first, so these should be none)
 * @param opsPerSecond those calls per second
 * @param p50Micros median latency
 * @param p99Micros 99th percentile latency
 * @param p999Micros 99.9th percentile latency
 * @param errors calls that failed inside the measured window
 * @param firstError the first failure's type and message, or {@code null}
 * @param cpuCores client-process CPU time over the window's wall time (2.0 = both cores busy)
 * @param cpuMicrosPerOperation client-process CPU time per measured call
 * @param settling how a self-tuning target got to its steady state
 */
public record CellResult(String target, Workload workload, int round, long operations, long misses, double opsPerSecond, double p50Micros,
        double p99Micros, double p999Micros, long errors, String firstError, double cpuCores, double cpuMicrosPerOperation,
        Settling settling) {
}
