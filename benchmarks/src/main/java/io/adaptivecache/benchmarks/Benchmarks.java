package io.adaptivecache.benchmarks;

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
import java.util.stream.Collectors;

import io.adaptivecache.benchmarks.check.CheckReport;
import io.adaptivecache.benchmarks.check.CheckRun;
import io.adaptivecache.benchmarks.http.HttpBenchmark;
import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.ClosedLoopRunner;
import io.adaptivecache.benchmarks.load.KeyspaceFiller;
import io.adaptivecache.benchmarks.load.LoadedClient;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Settling;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.benchmarks.pairs.ClientTimings;
import io.adaptivecache.benchmarks.pairs.GoalSet;
import io.adaptivecache.benchmarks.pairs.PairedRun;
import io.adaptivecache.benchmarks.pairs.PhasePlan;
import io.adaptivecache.benchmarks.pairs.PhaseReport;
import io.adaptivecache.benchmarks.pairs.PhaseRun;
import io.adaptivecache.benchmarks.pairs.VerdictReport;
import io.adaptivecache.benchmarks.report.Charts;
import io.adaptivecache.benchmarks.report.CsvLog;
import io.adaptivecache.benchmarks.report.MarkdownReport;
import io.adaptivecache.benchmarks.report.ResultSet;
import io.adaptivecache.benchmarks.report.RunFacts;
import io.adaptivecache.benchmarks.servers.BenchmarkServers;
import io.adaptivecache.benchmarks.targets.BenchTarget;
import io.adaptivecache.benchmarks.targets.BootDefaults;
import io.adaptivecache.benchmarks.targets.Targets;
import io.adaptivecache.redis.RedisTransport;

/**
 * The benchmark: every selected target on every workload, interleaved within each round (the
 * order of targets rotates from round to round), written as {@code cells.csv} while it runs and
 * as {@code results.md}, {@code details.md} and PNG charts at the end.
 *
 * <pre>./mvnw -q -pl benchmarks -am package -DskipTests &amp;&amp; java -jar benchmarks/target/adaptive-cache-benchmarks.jar [--quick]</pre>
 */
public final class Benchmarks {

    private Benchmarks() {
    }

    /**
     * Runs the benchmark.
     * @param args options; {@code --help} lists them
     * @throws Exception if the run fails
     */
    public static void main(String[] args) throws Exception {
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        }
        catch (BenchmarkOptions.UsageRequested ex) {
            System.out.print(BenchmarkOptions.USAGE);
            return;
        }
        catch (IllegalArgumentException ex) {
            System.err.println(ex.getMessage());
            System.err.print(BenchmarkOptions.USAGE);
            System.exit(2);
            return;
        }
        Path results = run(options);
        System.out.println("Results: " + results.toAbsolutePath());
    }

    static Path run(BenchmarkOptions options) throws Exception {
        if (options.goals.contains("e2e")) {
            return endToEnd(options);
        }
        if (options.goals.contains("near-check")) {
            return nearCheck(options);
        }
        if (!options.phases.isEmpty()) {
            return phases(options);
        }
        if (!options.goals.isEmpty()) {
            return verdicts(options);
        }
        if (options.transports.size() > 1) {
            return TransportRuns.run(options);
        }
        // Before any spymemcached class logs: its default logger costs half its throughput (see anchors.md).
        if (System.getProperty("net.spy.log.LoggerImpl") == null) {
            System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SLF4JLogger");
        }
        System.setProperty("java.awt.headless", "true");
        // Lettuce has one transport per JVM, so every Redis target of the run shares it, ours and the peers alike.
        RedisTransport.select(options.transport);
        int cores = Runtime.getRuntime().availableProcessors();
        List<BenchTarget> catalog = Targets.all(cores, options.timeout, options.adaptiveWindow, options.adaptiveDwell,
                options.adaptiveTrial);
        List<BenchTarget> targets = catalog.stream()
                .filter(target -> options.backends.contains(target.backend()) && options.selects(target.id()))
                .map(target -> target.withSuffix(options.targetSuffix)).toList();
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("No target matches --targets " + options.targets + " on " + options.backends);
        }
        Files.createDirectories(options.out);
        List<Backend> backends = options.backends.stream()
                .filter(backend -> targets.stream().anyMatch(target -> target.backend() == backend)).toList();
        printPlan(options, targets, backends);
        Instant started = Instant.now();
        ResultSet resultSet = new ResultSet(targets.stream().map(BenchTarget::id).toList());
        ClosedLoopRunner runner = new ClosedLoopRunner(options.warmUp, options.measure, options.settle);
        try (BenchmarkServers servers = new BenchmarkServers(backends, options.addresses,
                options.networks.contains(Network.DELAYED), options.delay.toMillis());
                CsvLog csv = new CsvLog(options.out)) {
            for (int round = 1; round <= options.rounds; round++) {
                for (Backend backend : backends) {
                    List<BenchTarget> order = rotated(targets.stream().filter(target -> target.backend() == backend).toList(), round - 1);
                    for (int size : options.sizes) {
                        byte[] value = new byte[size];
                        new SplittableRandom(size).nextBytes(value);
                        KeyspaceFiller.fill(backend, servers.address(backend, Network.LOOPBACK), value);
                        if (backend == Backend.REDIS) {
                            // The near-cache targets' own key space and Redisson's map (see Targets).
                            KeyspaceFiller.fill(backend, servers.address(backend, Network.LOOPBACK), value,
                                    index -> Targets.NEAR_KEY_PREFIX + index);
                            KeyspaceFiller.fillHash(servers.address(backend, Network.LOOPBACK), Targets.REDISSON_MAP, value);
                        }
                        for (Network network : options.networks) {
                            if (!backend.supports(network)) {
                                continue;
                            }
                            String[] hostPort = servers.address(backend, network).split(":");
                            for (int threads : options.threads) {
                                Workload workload = new Workload(backend, network, size, threads);
                                for (BenchTarget target : order) {
                                    CellResult cell = measure(runner, target, hostPort[0], Integer.parseInt(hostPort[1]), workload,
                                            options.round(round), value);
                                    resultSet.add(cell);
                                    csv.append(cell);
                                    System.out.println(progress(cell));
                                }
                            }
                        }
                    }
                }
            }
        }
        return report(options, resultSet, targets, started, Instant.now());
    }

    /** Charts and Markdown for a finished run. */
    static Path report(BenchmarkOptions options, ResultSet resultSet, List<BenchTarget> targets, Instant started, Instant finished)
            throws Exception {
        Map<String, BenchTarget.Kind> kinds = new LinkedHashMap<>();
        targets.forEach(target -> kinds.putIfAbsent(target.id(), target.kind()));
        Map<Workload.Group, List<Path>> charts = Charts.write(resultSet, kinds, options.out);
        return new MarkdownReport(resultSet, targets, facts(options, started, finished)).write(options.out, charts);
    }

    /** A verdict run: paired slices for each goal set, then {@code verdicts.md} and its charts. */
    static Path verdicts(BenchmarkOptions options) throws Exception {
        System.setProperty("java.awt.headless", "true");
        List<GoalSet> sets = options.goals.stream().map(GoalSet::named).toList();
        if (sets.stream().map(GoalSet::mix).distinct().count() > 1) {
            throw new IllegalArgumentException("Goal sets " + options.goals + " load their servers differently ("
                    + sets.stream().map(each -> each.name() + ": " + each.mix().label()).collect(Collectors.joining(", "))
                    + "); run them one at a time");
        }
        GoalSet joined = sets.size() == 1 ? sets.get(0) : new GoalSet(options.goals.stream().collect(Collectors.joining("+")),
                sets.stream().flatMap(each -> each.goals().stream()).toList(), sets.get(0).mix(),
                sets.stream().flatMap(each -> each.staleness().stream()).toList());
        // --backends narrows a set to the goals of those servers (by default every backend a set names).
        GoalSet set = new GoalSet(joined.name(), joined.goals().stream().filter(goal -> options.backends.contains(goal.backend()))
                .toList(), joined.mix(), joined.staleness().stream().filter(goal -> options.backends.contains(goal.backend())).toList());
        if (set.goals().isEmpty()) {
            throw new IllegalArgumentException("Goal set " + joined.name() + " has no goal on " + options.backends);
        }
        int cores = Runtime.getRuntime().availableProcessors();
        double maxDisturbance = options.maxOutside * cores;
        PairedRun.Settings settings = new PairedRun.Settings(options.out, options.threads, options.sizes, options.networks, options.addresses, options.delay,
                new ClientTimings(options.timeout, options.adaptiveWindow, options.adaptiveDwell, options.adaptiveTrial), options.warmUp,
                options.settle, options.bootSettle, options.ramp, options.slice, options.pairs, options.maxPairs, options.batch,
                maxDisturbance, options.workerHeap);
        PairedRun.Result result = new PairedRun(settings, set).run();
        Map<String, Map<String, String>> facts = facts(options, result.started(), result.finished());
        Map<String, String> run = facts.get("Run");
        run.remove("Rounds");
        run.remove("Cell");
        run.remove("Redis transport");
        run.put("Cycles", options.pairs + " per workload at least, up to " + options.maxPairs + " (in batches of " + options.batch
                + ") while a goal is undecided");
        run.put("Slice", options.ramp.toMillis() + " ms of unmeasured ramp, then " + options.slice.toMillis() + " ms measured; each"
                + " target warmed alone for " + options.warmUp.toMillis() + " ms (adaptive ones settle, at most "
                + options.settle.toMillis() + " ms) before its first slice on a workload");
        run.put("Target JVMs", "one per target, -Xmx" + options.workerHeap + ", idle while another runs; Lettuce's transport from the"
                + " target id (@io_uring), auto for " + Targets.BOOT_DEFAULT + ", NIO otherwise");
        run.put(Targets.BOOT_DEFAULT, bootDefault() + "; settles at most " + options.bootSettle.toMillis() + " ms");
        run.put("Dropped", String.format(Locale.ROOT, "a cycle whose slice saw more than %.0f%% of the machine (%.2f cores) taken by"
                + " other processes and steal", options.maxOutside * 100, maxDisturbance));
        return VerdictReport.write(options.out, set, result, maxDisturbance, facts);
    }

    /** The end-to-end run: a Boot web application on each cache setup, loaded over HTTP by wrk; {@code e2e.md}. */
    static Path endToEnd(BenchmarkOptions options) throws Exception {
        if (options.goals.size() > 1) {
            throw new IllegalArgumentException("--goals e2e runs alone, was " + options.goals);
        }
        System.setProperty("java.awt.headless", "true");
        // This JVM runs no Redis client; fixing Lettuce's transport keeps the run's facts from making it pick one (and warn).
        RedisTransport.select(RedisTransport.NIO);
        HttpBenchmark.Settings settings = new HttpBenchmark.Settings(options.out, options.threads, options.targets,
                options.addresses.get(Backend.REDIS), options.endToEndDelay(), options.timeout, options.warmUp, options.settle, options.ramp, options.slice,
                options.pairs, options.maxPairs, options.batch, options.maxOutside * Runtime.getRuntime().availableProcessors(),
                options.workerHeap);
        return HttpBenchmark.run(settings, (started, finished) -> {
            Map<String, Map<String, String>> facts = facts(options, started, finished);
            facts.get("Run").keySet().retainAll(List.of("Command", "Started", "Duration"));
            return facts;
        });
    }

    /** A history check: near caches under a seeded mix and faults on each backend, every read checked; {@code near-check.md}. */
    static Path nearCheck(BenchmarkOptions options) throws Exception {
        if (options.goals.size() > 1) {
            throw new IllegalArgumentException("--goals near-check runs alone, was " + options.goals);
        }
        RedisTransport.select(options.transport);
        Instant started = Instant.now();
        List<CheckRun.Outcome> outcomes = new ArrayList<>();
        for (Backend backend : options.backends) {
            if (backend == Backend.REDIS_CLUSTER) {
                continue; // a near cache with invalidations refuses a cluster template
            }
            System.out.println("History check on " + backend.label() + ": at least " + options.checkReads + " reads and "
                    + options.checkFaults + " faults of each kind, " + options.checkDuration.toSeconds() + " s to "
                    + options.checkLimit.toSeconds() + " s");
            CheckRun.Settings settings = CheckRun.Settings.of(backend, options.seed, options.checkDuration, options.checkReads,
                    options.checkFaults, options.checkLimit);
            outcomes.add(new CheckRun(settings, System.out::println).run());
        }
        String command = "java -jar benchmarks/target/adaptive-cache-benchmarks.jar " + String.join(" ", options.arguments);
        Path report = CheckReport.write(options.out, outcomes, command, started);
        outcomes.forEach(outcome -> System.out.println(outcome.settings().backend().label() + ": " + outcome.result().summary()));
        return report;
    }

    /** A phase run: each target runs load sequences under one client, then {@code phases.md} and its timelines. */
    static Path phases(BenchmarkOptions options) throws Exception {
        System.setProperty("java.awt.headless", "true");
        double maxDisturbance = options.maxOutside * Runtime.getRuntime().availableProcessors();
        List<Backend> backends = options.backends.stream().filter(backend -> backend != Backend.REDIS_CLUSTER).toList();
        PhaseRun.Settings settings = new PhaseRun.Settings(options.out, backends, PhasePlan.named(options.phases, options.surgeSettle,
                options.surgeHold), options.addresses,
                new ClientTimings(options.timeout, options.adaptiveWindow, options.adaptiveDwell, options.adaptiveTrial),
                options.phaseLength, options.cycles, maxDisturbance, options.workerHeap);
        PhaseRun.Result result = new PhaseRun(settings).run();
        Map<String, Map<String, String>> facts = facts(options, result.started(), result.finished());
        Map<String, String> run = facts.get("Run");
        run.keySet().removeIf(key -> !key.equals("Command") && !key.equals("Started") && !key.equals("Duration")
                && !key.equals("Finished"));
        run.put("Sequences", String.join(", ", options.phases) + "; " + options.cycles + " cycles; phases of "
                + options.phaseLength.toMillis() + " ms, the second half counted as after settling"
                + (options.phases.contains("surge") ? "; surge: " + options.surgeSettle.toMillis() + " ms at 8 callers, then "
                        + options.surgeHold.toMillis() + " ms at 200" : ""));
        run.put("Adaptive timings", "window " + options.adaptiveWindow.toMillis() + " ms, dwell " + options.adaptiveDwell.toMillis()
                + " ms, trial " + options.adaptiveTrial.toMillis() + " ms for the adaptive templates the harness builds; "
                + bootDefault());
        run.put("Target JVMs", "one per target, -Xmx" + options.workerHeap + ", idle while another runs; Lettuce's transport from the"
                + " target id (@io_uring), auto for " + Targets.BOOT_DEFAULT + ", NIO otherwise");
        run.put("Dropped", String.format(Locale.ROOT, "a cycle's phase during which other processes and steal took more than %.0f%% of"
                + " the machine (%.2f cores)", options.maxOutside * 100, maxDisturbance));
        return PhaseReport.write(options.out, settings, result, facts);
    }

    /** What a report says of the Boot-built default, whose timings no option changes. */
    private static String bootDefault() {
        return Targets.BOOT_DEFAULT + ": the starter's template in a Spring Boot context, only the server's address set: the"
                + " production defaults (" + BootDefaults.read().describe() + ", the starter's timeouts and transport)";
    }

    private static CellResult measure(ClosedLoopRunner runner, BenchTarget target, String host, int port, Workload workload,
            int round, byte[] value) {
        // Leave the previous cell's garbage out of this one.
        System.gc();
        LoadedClient client;
        try {
            client = target.open(host, port, workload.threads());
        }
        catch (Exception ex) {
            return new CellResult(target.id(), workload, round, 0, 0, 0, 0, 0, 0, 1, "could not open: " + ex, 0, 0, Settling.FIXED,
                    null);
        }
        try (client) {
            return runner.run(target.id(), client, workload, round, value);
        }
    }

    static <T> List<T> rotated(List<T> list, int by) {
        List<T> rotated = new ArrayList<>(list);
        if (!rotated.isEmpty()) {
            java.util.Collections.rotate(rotated, -(by % rotated.size()));
        }
        return rotated;
    }

    private static void printPlan(BenchmarkOptions options, List<BenchTarget> targets, List<Backend> backends) {
        long cells = 0;
        long adaptiveCells = 0;
        for (Backend backend : backends) {
            long perWorkload = targets.stream().filter(target -> target.backend() == backend).count();
            long adaptive = targets.stream().filter(target -> target.backend() == backend && target.id().contains("adaptive")).count();
            long workloads = (long) options.rounds * options.sizes.size() * options.networks.size() * options.threads.size();
            cells += perWorkload * workloads;
            adaptiveCells += adaptive * workloads;
        }
        Duration perCell = options.warmUp.plus(options.measure).plusMillis(300);
        Duration longest = perCell.multipliedBy(cells).plus(options.settle.multipliedBy(adaptiveCells));
        System.out.printf(Locale.ROOT, "%d cells (%d targets, %d rounds); about %d min, at most %d min; results in %s%n", cells,
                targets.size(), options.rounds, perCell.multipliedBy(cells).toMinutes() + 1, longest.toMinutes() + 1, options.out);
    }

    private static String progress(CellResult cell) {
        Workload workload = cell.workload();
        String line = String.format(Locale.ROOT, "[r%d %s %s %s %3d thr] %-15s %,10.0f ops/s  p99 %8.2f ms  cpu %.2f  miss %d  err %d",
                cell.round(), workload.backend().label(), workload.network().label(), Workload.sizeLabel(workload.valueBytes()),
                workload.threads(), cell.target(), cell.opsPerSecond(), cell.p99Micros() / 1000, cell.cpuCores(), cell.misses(), cell.errors());
        if (cell.settling().finalStrategy() != null) {
            line += String.format(Locale.ROOT, "  -> %s, %d switches, last at %.1f s%s", cell.settling().finalStrategy(),
                    cell.settling().switches(), cell.settling().lastSwitchAfter().toMillis() / 1000.0,
                    cell.settling().settled() ? "" : ", not settled");
        }
        if (!Double.isNaN(cell.commandsPerWrite())) {
            line += String.format(Locale.ROOT, "  %.2f cmds/write", cell.commandsPerWrite());
        }
        if (cell.firstError() != null) {
            line += "  first error: " + cell.firstError();
        }
        return line;
    }

    private static Map<String, Map<String, String>> facts(BenchmarkOptions options, Instant started, Instant finished) {
        Map<String, String> run = new LinkedHashMap<>();
        run.put("Command", "`java -jar benchmarks/target/adaptive-cache-benchmarks.jar" + (options.arguments.isEmpty() ? ""
                : " " + String.join(" ", options.arguments)) + "`");
        run.put("Started", started.toString());
        run.put("Duration", Duration.between(started, finished).toMinutes() + " min");
        run.put("Rounds", Integer.toString(options.rounds));
        run.put("Cell", "warm-up " + options.warmUp.toMillis() + " ms, measured " + options.measure.toMillis() + " ms");
        run.put("Caller threads", options.threads.stream().map(String::valueOf).collect(Collectors.joining(", ")));
        run.put("Value sizes", options.sizes.stream().map(Workload::sizeLabel).collect(Collectors.joining(", ")));
        run.put("Networks", options.networks.stream().map(network -> network == Network.DELAYED
                ? "delayed (proxy in its own JVM, " + options.delay.toMillis() + " ms each way)" : network.label())
                .collect(Collectors.joining(", ")));
        run.put("Redis transport", options.transports.size() > 1
                ? options.transports.stream().map(RedisTransport::label).collect(Collectors.joining(", "))
                        + ", each in a JVM of its own per round (target ids carry @transport)"
                : RedisTransport.inUse().label() + " (asked for: " + options.transport.label()
                        + "; Lettuce's, one per JVM, so every Lettuce-based target of the run shares it)");
        run.put("Timeouts", options.timeout.toMillis() + " ms for every client's commands and pool waits");
        run.put("Adaptive", "window " + options.adaptiveWindow.toMillis() + " ms, dwell " + options.adaptiveDwell.toMillis()
                + " ms, trial " + options.adaptiveTrial.toMillis() + " ms, settle limit " + options.settle.toMillis()
                + " ms; other settings the defaults");
        run.put("Servers", options.addresses.isEmpty() ? "started by the harness on free loopback ports (memcached -t 2 -m 2048)"
                : "given: " + options.addresses);
        Map<String, Map<String, String>> facts = new LinkedHashMap<>();
        facts.put("Run", run);
        facts.put("Machine", RunFacts.machine());
        Map<String, String> versions = new LinkedHashMap<>(RunFacts.servers());
        versions.putAll(RunFacts.libraries());
        facts.put("Versions", versions);
        return facts;
    }
}
