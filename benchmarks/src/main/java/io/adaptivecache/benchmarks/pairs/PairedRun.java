package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SplittableRandom;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.KeyspaceFiller;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.benchmarks.servers.BenchmarkServers;
import io.adaptivecache.benchmarks.targets.Targets;

/**
 * A verdict run: for each workload, every target of the goal set's comparisons runs in a JVM of
 * its own, is opened and warmed (an adaptive target settles), and then the targets take turns in
 * short slices, one at a time, cycle after cycle, in an order that is shuffled and then reversed
 * in the next cycle so that no target always runs first or after the same one. Around every slice the machine's CPU
 * counters are read. After the minimum number of cycles, a workload whose goals are all decided
 * and whose every comparison kept at least that many cycles stops; otherwise it gets more
 * cycles, a batch at a time, up to the cap.
 */
public final class PairedRun {

    private final Settings settings;
    private final GoalSet goals;
    private final Map<String, WorkerProcess> workers = new LinkedHashMap<>();
    private final Map<Workload, Map<String, String>> warmUps = new LinkedHashMap<>();

    /**
     * Creates a run.
     * @param settings how it measures
     * @param goals what it compares
     */
    public PairedRun(Settings settings, GoalSet goals) {
        this.settings = settings;
        this.goals = goals;
    }

    /**
     * Runs every workload and writes {@code slices.csv} as it goes.
     * @return every slice
     * @throws Exception if a target or server fails
     */
    public Result run() throws Exception {
        Settings s = this.settings;
        Files.createDirectories(s.out());
        List<Backend> backends = this.goals.backends();
        List<Slice> slices = new ArrayList<>();
        Instant started = Instant.now();
        printPlan(backends);
        try (BenchmarkServers servers = new BenchmarkServers(backends, s.addresses(), s.networks().contains(Network.DELAYED),
                s.delay().toMillis()); SliceLog log = new SliceLog(s.out())) {
            for (Backend backend : backends) {
                List<String> targets = this.goals.targets(backend);
                for (String target : targets) {
                    this.workers.put(key(backend, target), WorkerProcess.start(backend, target, s.timings(), s.workerHeap(),
                            s.out().resolve("jvm").resolve(backend.name().toLowerCase(Locale.ROOT) + "-" + target.replace('#', '_')
                                    + ".log")));
                }
                for (int size : s.sizes()) {
                    byte[] value = new byte[size];
                    new SplittableRandom(size).nextBytes(value);
                    KeyspaceFiller.fill(backend, servers.address(backend, Network.LOOPBACK), value);
                    if (targets.stream().anyMatch(target -> target.startsWith("ours-near"))) {
                        KeyspaceFiller.fill(backend, servers.address(backend, Network.LOOPBACK), value,
                                index -> Targets.NEAR_KEY_PREFIX + index);
                    }
                    if (targets.stream().anyMatch(target -> target.startsWith("redisson"))) {
                        KeyspaceFiller.fillHash(servers.address(backend, Network.LOOPBACK), Targets.REDISSON_MAP, value);
                    }
                    for (Network network : s.networks()) {
                        if (!backend.supports(network)) {
                            continue;
                        }
                        for (int threads : s.threads()) {
                            Workload workload = new Workload(backend, network, size, threads, this.goals.mix());
                            slices.addAll(runWorkload(workload, targets, servers.address(backend, network), log));
                        }
                    }
                }
            }
        }
        finally {
            this.workers.values().forEach(WorkerProcess::close);
        }
        return new Result(slices, this.warmUps, started, Instant.now());
    }

    private List<Slice> runWorkload(Workload workload, List<String> targets, String address, SliceLog log) throws IOException {
        Settings s = this.settings;
        Backend backend = workload.backend();
        String[] hostPort = address.split(":");
        Map<String, String> warmed = new LinkedHashMap<>();
        for (String target : targets) {
            WorkerProcess worker = this.workers.get(key(backend, target));
            worker.call(String.format(Locale.ROOT, "open %s %s %s %s %d %d %s", hostPort[0], hostPort[1], backend.name(),
                    workload.network().name(), workload.valueBytes(), workload.threads(), workload.mix().slug()), Duration.ofSeconds(60));
        }
        // Warm each alone, as it will be measured: JIT, connections, pools, and the adaptive strategy settled at this load.
        for (String target : targets) {
            Duration settle = s.settle(target);
            String[] answer = this.workers.get(key(backend, target)).call(String.format(Locale.ROOT, "warm %d %d",
                    s.warmUp().toMillis(), settle.toMillis()), s.warmUp().plus(settle).plus(Duration.ofSeconds(90)));
            if (!answer[0].equals("-")) {
                warmed.put(target, answer[0] + " after " + answer[1] + (answer[1].equals("1") ? " switch" : " switches"));
            }
        }
        this.warmUps.put(workload, warmed);
        WarmUps.append(s.out(), workload, warmed);
        List<Slice> slices = new ArrayList<>();
        Duration limit = s.ramp().plus(s.slice()).plus(Duration.ofSeconds(90));
        int cycle = 0;
        while (true) {
            cycle++;
            List<String> order = order(targets, cycle);
            for (int position = 0; position < order.size(); position++) {
                String target = order.get(position);
                HostLoad.Snapshot before = HostLoad.take();
                String[] f = this.workers.get(key(backend, target)).call(String.format(Locale.ROOT, "slice %d %d",
                        s.ramp().toMillis(), s.slice().toMillis()), limit);
                HostLoad.Snapshot after = HostLoad.take();
                HostLoad.Share share = before == null || after == null ? HostLoad.Share.UNKNOWN : after.since(before);
                Slice slice = new Slice(workload, cycle, position, target, Long.parseLong(f[0]), Double.parseDouble(f[1]),
                        Long.parseLong(f[2]), Double.parseDouble(f[4]), Double.parseDouble(f[5]), share.outside(), share.steal(),
                        share.irq(), share.ours(), f[6], Integer.parseInt(f[7]), new Staleness(f[8]));
                slices.add(slice);
                log.append(slice);
                if (slice.errors() > 0 && f.length > 9) {
                    System.out.println("  " + target + ": " + slice.errors() + " errors, first: " + f[9]);
                }
            }
            if (cycle >= s.pairs() && ((cycle - s.pairs()) % s.batch() == 0 || cycle >= s.maxPairs())) {
                List<Verdicts.Row> rows = new ArrayList<>();
                for (Goal goal : this.goals.goals()) {
                    if (goal.backend() == backend) {
                        rows.add(Verdicts.evaluate(goal, workload, slices, s.maxDisturbanceCores()));
                    }
                }
                List<Verdicts.StalenessRow> staleness = new ArrayList<>();
                for (StalenessGoal goal : this.goals.staleness()) {
                    if (goal.backend() == backend) {
                        staleness.add(Verdicts.staleness(goal, workload, slices, s.maxDisturbanceCores()));
                    }
                }
                long undecided = rows.stream().filter(Verdicts.Row::undecided).count()
                        + staleness.stream().filter(Verdicts.StalenessRow::undecided).count();
                // Dropped cycles are made up for: every row needs the least number of kept cycles, controls included.
                long shortOfPairs = rows.stream().filter(row -> row.interval().pairs() < s.pairs()).count();
                long dropped = slices.stream().filter(slice -> slice.disturbed(s.maxDisturbanceCores())).count();
                System.out.printf(Locale.ROOT, "%s · %s · %s · %d callers: %d cycles, %d of %d slices disturbed, %d goals undecided,"
                        + " %d rows short of %d kept cycles%n", backend.label(), workload.network().label(),
                        Workload.sizeLabel(workload.valueBytes()), workload.threads(), cycle, dropped, slices.size(), undecided, shortOfPairs,
                        s.pairs());
                if ((undecided == 0 && shortOfPairs == 0) || cycle >= s.maxPairs()) {
                    for (Verdicts.Row row : rows) {
                        System.out.printf(Locale.ROOT, "  %-75s %-24s %s%n", row.goal().label(), row.interval().format(), row.status());
                    }
                    for (Verdicts.StalenessRow row : staleness) {
                        System.out.printf(Locale.ROOT, "  %-75s %-24s %s (max %.2f ms over %d writes)%n", "staleness p99 of "
                                + row.goal().target(), row.p99Text(), row.verdict().word(), row.maxMillis(), row.writes());
                    }
                    break;
                }
            }
        }
        for (String target : targets) {
            this.workers.get(key(backend, target)).call("close", Duration.ofSeconds(60));
        }
        return slices;
    }

    /**
     * The order of a cycle: odd cycles shuffle the targets (seeded, so a run can be repeated) and
     * each even cycle runs the previous order backwards. Within every two cycles each target runs
     * both before and after each other one, and over many cycles each takes every place and follows
     * every other target (a fixed rotation would keep the same neighbours forever).
     *
     * <p>The target last in an odd cycle is first in the next: it runs two slices back to back,
     * which gains it about a tenth over a target that follows another JVM's slice. So the shuffle
     * must spread that place over the targets. {@code java.util.Random} seeded with consecutive
     * numbers does not: its first draw, which decides the last place, barely moves with the seed,
     * and one target took every boundary of a run (it made the A/A twin of the near-cache goal
     * look 10% faster). Each pair of cycles therefore gets a seed scrambled by
     * {@link SplittableRandom}.
     * @param targets the targets in their base order
     * @param cycle the cycle, from 1
     * @return the order
     */
    public static List<String> order(List<String> targets, int cycle) {
        List<String> order = new ArrayList<>(targets);
        int pairOfCycles = (cycle + 1) / 2;
        Collections.shuffle(order, new java.util.Random(new SplittableRandom(0x5eedL + pairOfCycles).nextLong()));
        if (cycle % 2 == 0) {
            Collections.reverse(order);
        }
        return order;
    }

    private void printPlan(List<Backend> backends) {
        Settings s = this.settings;
        long sliceMillis = s.ramp().plus(s.slice()).toMillis() + 150;
        long least = 0;
        long most = 0;
        for (Backend backend : backends) {
            long networks = s.networks().stream().filter(backend::supports).count();
            long workloads = networks * s.sizes().size() * s.threads().size();
            int targets = this.goals.targets(backend).size();
            least += workloads * targets * (s.pairs() * sliceMillis + s.warmUp().toMillis() + 1500);
            most += workloads * targets * (s.maxPairs() * sliceMillis + s.warmUp().plus(s.settle()).toMillis() + 1500);
            // The Boot-built default on the production timings rests no sooner than its first dwell: count half its limit.
            long booted = this.goals.targets(backend).stream().filter(Targets::bootBuilt).count();
            least += workloads * booted * s.bootSettle().toMillis() / 2;
            most += workloads * booted * s.bootSettle().toMillis();
        }
        System.out.printf(Locale.ROOT, "Goal set %s: %d to %d cycles a workload, slices of %d ms after %d ms of ramp; about %d min,"
                + " at most %d min; results in %s%n", this.goals.name(), s.pairs(), s.maxPairs(), s.slice().toMillis(),
                s.ramp().toMillis(), least / 60_000 + 1, most / 60_000 + 1, s.out());
    }

    private static String key(Backend backend, String target) {
        return backend.name() + "/" + target;
    }

    /**
     * How a verdict run measures.
     * @param out where results go
     * @param threads caller counts
     * @param sizes value sizes
     * @param networks paths to the server
     * @param addresses servers to use instead of starting them
     * @param delay the delaying proxy's delay each way
     * @param timings every client's timeout and the adaptive switcher's timings
     * @param warmUp load before the first slice of each target on each workload
     * @param settle the longest an adaptive target may take to settle before its first slice
     * @param bootSettle the same for the Boot-built default, on the production timings
     * @param ramp load at the start of each slice that is not measured
     * @param slice the measured part of each slice
     * @param pairs the least cycles per workload
     * @param maxPairs the most cycles per workload, for undecided goals
     * @param batch cycles added at a time to a workload with an undecided goal
     * @param maxDisturbanceCores outside CPU plus steal, in cores, above which a slice is dropped
     * @param workerHeap each target JVM's maximum heap
     */
    public record Settings(Path out, List<Integer> threads, List<Integer> sizes, List<Network> networks, Map<Backend, String> addresses,
            Duration delay, ClientTimings timings, Duration warmUp, Duration settle, Duration bootSettle, Duration ramp, Duration slice,
            int pairs, int maxPairs, int batch, double maxDisturbanceCores, String workerHeap) {

        /**
         * @param target a target id
         * @return the longest it may take to settle: the Boot-built default's own limit, else the run's
         */
        Duration settle(String target) {
            return Targets.bootBuilt(target) ? this.bootSettle : this.settle;
        }
    }

    /**
     * What a run measured.
     * @param slices every slice
     * @param warmUps per workload, what each adaptive target settled on before its slices
     * @param started when it started
     * @param finished when it finished
     */
    public record Result(List<Slice> slices, Map<Workload, Map<String, String>> warmUps, Instant started, Instant finished) {
    }
}
