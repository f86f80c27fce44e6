package io.adaptivecache.benchmarks.pairs;

import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Workload;

/**
 * One phase of one sequence run by one target in one cycle, and what the rest of the machine did
 * meanwhile.
 *
 * @param backend the server
 * @param plan the sequence's name
 * @param phaseIndex the phase, from 0
 * @param workload the phase as a workload (caller count, value size, network)
 * @param cycle the cycle, from 1
 * @param position the target's place in the cycle, from 0
 * @param target the target's id
 * @param wholeOpsPerSecond calls per second over the whole phase
 * @param settledOpsPerSecond calls per second over its second half
 * @param errors calls that failed
 * @param cpuMicrosPerCall the target JVM's CPU time per call
 * @param gcShare the target JVM's collectors' time over the phase's
 * @param strategy what an adaptive target ran at the phase's end ({@code -} for fixed ones)
 * @param switches an adaptive target's switches in the phase
 * @param rates calls per second, window by window
 * @param strategies what it ran at the end of each window
 * @param outsideCores CPU of other processes during the phase, in cores
 * @param stealCores steal, in cores
 * @param firstError the first failure, or empty
 */
public record PhaseSlice(Backend backend, String plan, int phaseIndex, Workload workload, int cycle, int position, String target,
        double wholeOpsPerSecond, double settledOpsPerSecond, long errors, double cpuMicrosPerCall, double gcShare, String strategy,
        List<Switch> switches, double[] rates, String[] strategies, double outsideCores, double stealCores, String firstError) {

    /**
     * Reads a worker's answer to {@code phase}.
     * @param backend the server
     * @param plan the sequence
     * @param phaseIndex the phase
     * @param cycle the cycle
     * @param position the place in the cycle
     * @param target the target
     * @param f the answer's words after {@code phase}
     * @param share the machine's CPU during the phase
     * @return the slice
     */
    static PhaseSlice parse(Backend backend, PhasePlan plan, int phaseIndex, int cycle, int position, String target, String[] f,
            HostLoad.Share share) {
        String[] windows = f[7].split(",");
        double[] rates = new double[windows.length];
        String[] strategies = new String[windows.length];
        for (int i = 0; i < windows.length; i++) {
            int slash = windows[i].indexOf('/');
            rates[i] = Double.parseDouble(windows[i].substring(0, slash));
            strategies[i] = windows[i].substring(slash + 1);
        }
        List<Switch> switches = new ArrayList<>();
        if (!f[8].equals("-")) {
            for (String event : f[8].split(",")) {
                String[] parts = event.split(">");
                switches.add(new Switch(Long.parseLong(parts[0]), parts[1], parts[2]));
            }
        }
        return new PhaseSlice(backend, plan.name(), phaseIndex, plan.phases().get(phaseIndex).workload(backend, plan.viaProxy()), cycle,
                position, target, Double.parseDouble(f[0]), Double.parseDouble(f[1]), Long.parseLong(f[2]), Double.parseDouble(f[3]),
                Double.parseDouble(f[6]), f[4], List.copyOf(switches), rates, strategies, share.outside(), share.steal(),
                f.length > 9 ? f[9] : "");
    }

    /**
     * Whether another process took more than a limit from the machine during the phase.
     * @param maxDisturbanceCores the limit, in cores of outside CPU plus steal
     * @return whether the phase is dropped from comparisons
     */
    public boolean disturbed(double maxDisturbanceCores) {
        return this.outsideCores + this.stealCores > maxDisturbanceCores;
    }

    /**
     * The phase as a verdict slice, so that the verdict harness's pairing, filter and intervals apply.
     * @param settled the figure after settling rather than the whole phase's
     * @return the slice
     */
    Slice asSlice(boolean settled) {
        double rate = settled ? this.settledOpsPerSecond : this.wholeOpsPerSecond;
        return new Slice(this.workload, this.cycle, this.position, this.target, rate > 0 ? 1 : 0, rate, this.errors,
                this.cpuMicrosPerCall, 0, this.outsideCores, this.stealCores, 0, 0, this.strategy, this.switches.size());
    }

    /**
     * When the last switch of the phase happened, from its start.
     * @return milliseconds, or 0 without a switch
     */
    public long lastSwitchMillis() {
        return this.switches.isEmpty() ? 0 : this.switches.get(this.switches.size() - 1).atMillis();
    }

    /**
     * One switch.
     * @param atMillis when, from the phase's start
     * @param to the strategy switched to
     * @param reason the policy's reason
     */
    public record Switch(long atMillis, String to, String reason) {
    }
}
