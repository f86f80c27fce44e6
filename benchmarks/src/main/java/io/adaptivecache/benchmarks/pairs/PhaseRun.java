package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.KeyspaceFiller;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.PhaseLoad;
import io.adaptivecache.benchmarks.servers.BenchmarkServers;
import io.adaptivecache.benchmarks.targets.BootDefaults;
import io.adaptivecache.benchmarks.targets.Targets;

/**
 * A phase run: each target, in a JVM of its own, runs a sequence of load changes ({@link PhasePlan})
 * under one client opened fresh for the sequence (an adaptive template starts from its initial
 * strategy, as after a deploy), with callers that keep running from phase to phase. The targets
 * take turns, a whole sequence each, cycle after cycle in the verdict harness's order (shuffled,
 * then reversed), so that each phase of each cycle gives one ratio per comparison; the CPU
 * counters around each phase drop the phases another process disturbed. Every phase is measured
 * whole and over its second half (after settling), window by window for the timeline. A surge
 * sequence runs only the Boot-built default and its fixed reference, with phases of its own
 * lengths on windows of the production length.
 */
public final class PhaseRun {

    private final Settings settings;
    private final Map<String, WorkerProcess> workers = new LinkedHashMap<>();

    /**
     * Creates a run.
     * @param settings how it measures
     */
    public PhaseRun(Settings settings) {
        this.settings = settings;
    }

    /**
     * Runs every sequence on every backend, writing {@code phases.csv} as it goes.
     * @return every phase measured
     * @throws Exception if a target or a server fails
     */
    public Result run() throws Exception {
        Settings s = this.settings;
        Files.createDirectories(s.out());
        List<PhaseSlice> slices = new ArrayList<>();
        Instant started = Instant.now();
        printPlan();
        boolean proxy = s.plans().stream().anyMatch(PhasePlan::viaProxy);
        try (BenchmarkServers servers = new BenchmarkServers(s.backends(), s.addresses(), proxy, 0);
                PhaseLog log = new PhaseLog(s.out())) {
            for (Backend backend : s.backends()) {
                List<String> targets = s.plans().stream().flatMap(plan -> PhaseGoals.targets(backend, plan).stream()).distinct()
                        .toList();
                for (String target : targets) {
                    this.workers.put(key(backend, target), WorkerProcess.start(backend, target, s.timings(), s.workerHeap(),
                            s.out().resolve("jvm").resolve(backend.name().toLowerCase(Locale.ROOT) + "-" + target + ".log")));
                }
                String direct = servers.address(backend, Network.LOOPBACK);
                for (int size : s.plans().stream().flatMap(plan -> plan.valueSizes().stream()).distinct().toList()) {
                    byte[] value = new byte[size];
                    new SplittableRandom(size).nextBytes(value);
                    KeyspaceFiller.fill(backend, direct, value, index -> PhaseLoad.key(size, index));
                }
                warmUp(backend, targets, direct);
                for (PhasePlan plan : s.plans()) {
                    String address = plan.viaProxy() ? servers.address(backend, Network.DELAYED) : direct;
                    for (int cycle = 1; cycle <= s.cycles(); cycle++) {
                        List<String> order = PairedRun.order(PhaseGoals.targets(backend, plan), cycle);
                        for (int position = 0; position < order.size(); position++) {
                            List<PhaseSlice> sequence = runSequence(backend, plan, order.get(position), cycle, position, address,
                                    servers);
                            sequence.forEach(log::append);
                            slices.addAll(sequence);
                        }
                        long disturbed = slices.stream().filter(slice -> slice.backend() == backend && slice.plan().equals(plan.name())
                                && slice.disturbed(s.maxDisturbanceCores())).count();
                        System.out.printf(Locale.ROOT, "%s · %s: cycle %d of %d done, %d phases disturbed so far%n", backend.label(),
                                plan.name(), cycle, s.cycles(), disturbed);
                    }
                }
                for (String target : targets) {
                    this.workers.remove(key(backend, target)).close();
                }
            }
        }
        finally {
            this.workers.values().forEach(WorkerProcess::close);
        }
        return new Result(slices, started, Instant.now());
    }

    /** JIT and connections: every target runs a short sequence of its own before the first measured one. */
    private void warmUp(Backend backend, List<String> targets, String address) throws IOException {
        String[] hostPort = address.split(":");
        long warm = Math.max(500, this.settings.phaseLength().toMillis() / 2);
        for (String target : targets) {
            WorkerProcess worker = this.workers.get(key(backend, target));
            worker.call("phase-open " + hostPort[0] + " " + hostPort[1], Duration.ofSeconds(60));
            for (int callers : new int[] {50, 1}) {
                worker.call(String.format(Locale.ROOT, "phase %d %d %d %d", callers, 100, warm, this.settings.window().toMillis()),
                        Duration.ofMillis(warm).plus(Duration.ofSeconds(90)));
            }
            worker.call("phase-close", Duration.ofSeconds(60));
        }
    }

    private List<PhaseSlice> runSequence(Backend backend, PhasePlan plan, String target, int cycle, int position, String address,
            BenchmarkServers servers) throws IOException {
        Settings s = this.settings;
        WorkerProcess worker = this.workers.get(key(backend, target));
        String[] hostPort = address.split(":");
        if (plan.viaProxy()) {
            servers.delayMillis(backend, plan.phases().get(0).delayMillis());
        }
        worker.call("phase-open " + hostPort[0] + " " + hostPort[1], Duration.ofSeconds(60));
        List<PhaseSlice> slices = new ArrayList<>();
        for (int index = 0; index < plan.phases().size(); index++) {
            PhasePlan.Phase phase = plan.phases().get(index);
            if (plan.viaProxy()) {
                servers.delayMillis(backend, phase.delayMillis());
            }
            Duration length = plan.length(index, s.phaseLength());
            HostLoad.Snapshot before = HostLoad.take();
            String[] f = worker.call(String.format(Locale.ROOT, "phase %d %d %d %d", phase.callers(), phase.valueBytes(),
                    length.toMillis(), s.window(plan).toMillis()), length.plus(Duration.ofSeconds(90)));
            HostLoad.Snapshot after = HostLoad.take();
            HostLoad.Share share = before == null || after == null ? HostLoad.Share.UNKNOWN : after.since(before);
            PhaseSlice slice = PhaseSlice.parse(backend, plan, index, cycle, position, target, f, share);
            slices.add(slice);
            if (slice.errors() > 0) {
                System.out.println("  " + target + " " + plan.name() + " phase " + (index + 1) + ": " + slice.errors()
                        + " errors, first: " + slice.firstError());
            }
        }
        worker.call("phase-close", Duration.ofSeconds(60));
        return slices;
    }

    private void printPlan() {
        Settings s = this.settings;
        long total = 0;
        for (Backend backend : s.backends()) {
            for (PhasePlan plan : s.plans()) {
                long perTarget = 1500;
                for (int index = 0; index < plan.phases().size(); index++) {
                    perTarget += plan.length(index, s.phaseLength()).toMillis();
                }
                total += perTarget * s.cycles() * PhaseGoals.targets(backend, plan).size();
            }
        }
        System.out.printf(Locale.ROOT, "Phase run %s on %s: %d cycles, phases of %d ms, windows of %d ms, dwell %d ms, trial %d ms"
                + " (%s: the starter's %s); about %d min; results in %s%n", s.plans().stream().map(PhasePlan::name).toList(),
                s.backends(), s.cycles(), s.phaseLength().toMillis(), s.window().toMillis(), s.timings().dwell().toMillis(),
                s.timings().trial().toMillis(), Targets.BOOT_DEFAULT, BootDefaults.read().describe(), total / 60_000 + 1, s.out());
    }

    private static String key(Backend backend, String target) {
        return backend.name() + "/" + target;
    }

    /**
     * How a phase run measures.
     * @param out where results go
     * @param backends the servers
     * @param plans the sequences
     * @param addresses servers to use instead of starting them
     * @param timings every client's timeout and the adaptive switcher's timings
     * @param phaseLength each phase's length
     * @param cycles how many times each target runs each sequence
     * @param maxDisturbanceCores outside CPU plus steal, in cores, above which a phase is dropped
     * @param workerHeap each target JVM's maximum heap
     */
    public record Settings(Path out, List<Backend> backends, List<PhasePlan> plans, Map<Backend, String> addresses,
            ClientTimings timings, Duration phaseLength, int cycles, double maxDisturbanceCores, String workerHeap) {

        /** @return the timeline's window: the adaptive switcher's */
        Duration window() {
            return this.timings.window();
        }

        /**
         * @param plan a sequence
         * @return its timeline's window: its own, else the adaptive switcher's
         */
        Duration window(PhasePlan plan) {
            return plan.window(window());
        }

        /** @return the longest a change may take to settle by the goal: the dwell and five windows */
        Duration settleBound() {
            return this.timings.dwell().plus(this.timings.window().multipliedBy(5));
        }

        /**
         * @param target an adaptive target
         * @return the longest a change may take it to settle by the goal: the dwell and five windows of its own timings
         */
        Duration settleBound(String target) {
            return Targets.bootBuilt(target) ? BootDefaults.read().settleBound() : settleBound();
        }
    }

    /**
     * What a run measured.
     * @param slices every phase of every sequence, target and cycle
     * @param started when it started
     * @param finished when it finished
     */
    public record Result(List<PhaseSlice> slices, Instant started, Instant finished) {
    }
}
