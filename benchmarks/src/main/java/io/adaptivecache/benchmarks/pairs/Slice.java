package io.adaptivecache.benchmarks.pairs;

import io.adaptivecache.benchmarks.load.Workload;

/**
 * One target measured alone for a short time, and what the rest of the machine did meanwhile.
 *
 * @param workload the workload
 * @param cycle the cycle, from 1: every target of the workload runs once per cycle
 * @param position its place in the cycle, from 0
 * @param target the target's id
 * @param operations calls completed inside the slice's measured window
 * @param opsPerSecond those calls per second
 * @param errors calls that failed
 * @param cpuMicrosPerCall the target JVM's CPU time per call
 * @param p99Micros 99th percentile latency
 * @param outsideCores CPU used by processes that are not the benchmark's, in cores
 * @param stealCores steal time, in cores
 * @param irqCores interrupt work, in cores
 * @param oursCores CPU of the benchmark's processes, in cores
 * @param strategy what an adaptive target ran at the slice's end; {@code -} for fixed ones
 * @param switches an adaptive target's switches since it opened
 * @param staleness for a target with a local tier, how stale its reads were; {@link Staleness#NONE} otherwise
 */
public record Slice(Workload workload, int cycle, int position, String target, long operations, double opsPerSecond, long errors,
        double cpuMicrosPerCall, double p99Micros, double outsideCores, double stealCores, double irqCores, double oursCores,
        String strategy, int switches, Staleness staleness) {

    /**
     * A slice of a target without a local tier.
     * @param workload the workload
     * @param cycle the cycle
     * @param position its place in the cycle
     * @param target the target's id
     * @param operations calls completed
     * @param opsPerSecond calls per second
     * @param errors calls that failed
     * @param cpuMicrosPerCall CPU per call
     * @param p99Micros 99th percentile latency
     * @param outsideCores outside CPU
     * @param stealCores steal
     * @param irqCores interrupt work
     * @param oursCores the benchmark's CPU
     * @param strategy what an adaptive target ran
     * @param switches its switches
     */
    public Slice(Workload workload, int cycle, int position, String target, long operations, double opsPerSecond, long errors,
            double cpuMicrosPerCall, double p99Micros, double outsideCores, double stealCores, double irqCores, double oursCores,
            String strategy, int switches) {
        this(workload, cycle, position, target, operations, opsPerSecond, errors, cpuMicrosPerCall, p99Micros, outsideCores,
                stealCores, irqCores, oursCores, strategy, switches, Staleness.NONE);
    }

    /**
     * Whether another process took more than a limit from the machine during the slice.
     * @param maxDisturbanceCores the limit, in cores of outside CPU plus steal
     * @return whether the slice is to be dropped
     */
    public boolean disturbed(double maxDisturbanceCores) {
        return this.outsideCores + this.stealCores > maxDisturbanceCores;
    }

    /** @return whether the slice measured calls and no failures */
    public boolean usable() {
        return this.operations > 0 && this.errors == 0;
    }
}
