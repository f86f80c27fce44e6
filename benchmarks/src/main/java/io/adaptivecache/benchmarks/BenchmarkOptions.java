package io.adaptivecache.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;

import io.adaptivecache.redis.RedisTransport;
import java.util.Map;
import java.util.function.Function;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.pairs.PhasePlan;
import io.adaptivecache.benchmarks.targets.BootDefaults;

/**
 * The benchmark's command line. Every option has a full-run default; {@code --quick} switches
 * the defaults to a run of about two minutes that proves the harness end to end (CI runs it),
 * and any option given explicitly still wins.
 */
final class BenchmarkOptions {

    static final String USAGE = """
            usage: java -jar benchmarks/target/adaptive-cache-benchmarks.jar [options]

              --quick                  a short run that proves the harness (1 round, 1 and 50 threads, 100 B, short cells)
              --threads 1,8,50,200     caller thread counts
              --sizes 100,10KiB,100KiB value sizes (B, KiB or MiB)
              --networks loopback,delayed
              --backends redis,memcached  also redis-cluster: a local cluster of three masters, on loopback only
              --targets ID,...         only these targets (ids as in the report; a trailing * matches a prefix)
              --rounds 3               interleaved rounds; figures are medians over rounds
              --warm-up 1s             load before measuring each cell
              --measure 3s             the measured window of each cell
              --settle 20s             the longest the adaptive target may take to settle after the warm-up
              --adaptive-window 1s     the adaptive switcher's window (dwell 3x, trial 3x unless given)
              --adaptive-dwell 3s
              --adaptive-trial 3s
              --delay 1ms              the delaying proxy's delay in each direction
              --transport nio          Lettuce's transport for the run: nio, epoll, io_uring or auto (one per JVM)
              --transports nio,io_uring  a transport dimension: each round runs every transport in a JVM of its own
                                         (target ids get @transport), against servers this process starts
              --timeout 5s             every client's command, operation and pool-wait timeout
              --redis HOST:PORT        use a running Redis instead of starting one (its keys bench:* are overwritten)
              --memcached HOST:PORT    use a running memcached instead of starting one
              --redis-cluster HOST:PORT  use a running Redis Cluster (any one node) instead of starting one
              --out DIR                where results go (default benchmarks/results/<time>)

            Verdicts (paired slices; --threads, --sizes, --networks, --timeout, --warm-up, --settle, --adaptive-*, --delay,
            --redis, --memcached and --out apply; every target runs in a JVM of its own):
              --goals redis,memcached  compare in alternating slices and give each goal a verdict (also: near, overhead,
                                       quick; --backends narrows a set to the goals on those servers; near loads with
                                       95% gets of Zipf keys, the others with 80% gets of uniform keys)
              --pairs 20               the least cycles (pairs) per workload
              --max-pairs 40           the most, for a workload with an undecided goal
              --batch 5                cycles added at a time to such a workload
              --slice 1s               the measured part of a slice
              --ramp 250ms             load at the start of a slice that is not measured
              --max-outside 10%        drop a cycle when another process (and steal) took more than this share of the
                                       machine during one of its slices
              --worker-heap 1g         each target JVM's maximum heap
              --boot-settle 125s       --settle for boot-default, the starter's template in a Spring Boot context, whose
                                       production timings and timeouts no option changes (two dwells and five windows;
                                       --quick: --settle)

            History check (--backends and --out apply; the default out is docs/benchmarks/runs/<date>-near-check):
              --goals near-check       near caches and plain writers on one server, faults injected, every read checked
                                       against the near cache's staleness bound (see docs/benchmarks/README.md)
              --check-reads 1000000    the least reads to check
              --check-faults 20        the least faults of each kind
              --check-duration 5m      the least time to run, per backend
              --check-limit 60m        the most time to run, per backend, targets met or not
              --seed 26                the seed of the mix, the faults' order and their targets

            End to end (--threads as wrk's connections, --targets as application ids, --warm-up, --settle, --slice, --ramp,
            --pairs, --max-pairs, --batch, --max-outside, --timeout, --worker-heap, --redis, --delay and --out apply, and
            --networks with one network, loopback by default; needs wrk):
              --goals e2e              a Boot web application (GET /items/{id} through @Cacheable on Redis) on
                                       spring-boot-starter-data-redis's defaults, with its pool, on adaptive-cache's defaults
                                       and with its near cache, a JVM each, loaded over HTTP by wrk in alternating slices;
                                       verdicts on requests/s and p99. Its defaults: --threads 16,64,256 --slice 5s --ramp 1s
                                       --warm-up 20s --settle 100s (slices and ramps in whole seconds, wrk's unit)

            Phases (--backends, --timeout, --adaptive-*, --max-outside, --worker-heap, --redis, --memcached and --out apply):
              --phases callers,rtt,size  each target runs these load sequences under one client, cycle after cycle
                                       (also surge: boot-default and a fixed MULTI(N) only, 8 callers, then 200, on 1 s
                                       windows; goal: from 3 s after the step every second >= 0.9x MULTI(N), no failed call)
              --surge-settle 120s      the surge's time at 8 callers, for the production policy to switch and keep it
              --surge-hold 60s         its time at 200 callers (--quick: 3s and 5s)
              --cycles 4               how many times each target runs each sequence
              --phase-length 6s        each phase's length; the adaptive window defaults to 250ms here, dwell and trial
                                       to 5 windows (boot-default keeps the starter's production timings)
            """;

    List<Integer> threads = List.of(1, 8, 50, 200);
    List<Integer> sizes = List.of(100, 10 * 1024, 100 * 1024);
    List<Network> networks = List.of(Network.LOOPBACK, Network.DELAYED);
    List<Backend> backends = List.of(Backend.REDIS, Backend.MEMCACHED);
    List<String> targets = List.of();
    int rounds = 3;
    Duration warmUp = Duration.ofSeconds(1);
    Duration measure = Duration.ofSeconds(3);
    Duration settle = Duration.ofSeconds(20);
    Duration bootSettle = BootDefaults.read().settleLimit();
    Duration surgeSettle = PhasePlan.SURGE_SETTLE;
    Duration surgeHold = PhasePlan.SURGE_HOLD;
    Duration adaptiveWindow = Duration.ofSeconds(1);
    Duration adaptiveDwell;
    Duration adaptiveTrial;
    Duration delay = Duration.ofMillis(1);
    RedisTransport transport = RedisTransport.NIO;
    List<RedisTransport> transports = List.of();
    int roundNumber;
    String targetSuffix = "";
    Duration timeout = Duration.ofSeconds(5);
    Map<Backend, String> addresses = new EnumMap<>(Backend.class);
    Path out;
    boolean quick;
    List<String> goals = List.of();
    int pairs = 20;
    int maxPairs = 40;
    int batch = 5;
    Duration slice = Duration.ofSeconds(1);
    Duration ramp = Duration.ofMillis(250);
    double maxOutside = 0.10;
    String workerHeap = "1g";
    List<String> phases = List.of();
    int cycles = 4;
    Duration phaseLength = Duration.ofSeconds(6);
    long checkReads = 1_000_000;
    int checkFaults = 20;
    Duration checkDuration = Duration.ofMinutes(5);
    Duration checkLimit = Duration.ofMinutes(60);
    long seed = 26;
    final List<String> arguments;

    private BenchmarkOptions(List<String> arguments) {
        this.arguments = arguments;
    }

    static BenchmarkOptions parse(String[] args) {
        BenchmarkOptions options = new BenchmarkOptions(List.of(args));
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("Unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String value = null;
            int equals = name.indexOf('=');
            if (equals >= 0) {
                value = name.substring(equals + 1);
                name = name.substring(0, equals);
            }
            else if (!name.equals("quick") && !name.equals("help")) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("--" + name + " needs a value");
                }
                value = args[++i];
            }
            given.put(name, value);
        }
        if (given.containsKey("help")) {
            throw new UsageRequested();
        }
        if (given.containsKey("quick")) {
            options.quick = true;
            options.threads = List.of(1, 50);
            options.sizes = List.of(100);
            options.rounds = 1;
            options.warmUp = Duration.ofMillis(200);
            options.measure = Duration.ofMillis(500);
            options.settle = Duration.ofSeconds(3);
            options.adaptiveWindow = Duration.ofMillis(500);
            // A verdict run in quick mode proves the harness: a few short cycles, one workload per network.
            options.pairs = 4;
            options.maxPairs = 6;
            options.batch = 2;
            options.slice = Duration.ofMillis(300);
            options.ramp = Duration.ofMillis(100);
            options.workerHeap = "256m";
            options.surgeSettle = Duration.ofSeconds(3);
            options.surgeHold = Duration.ofSeconds(5);
        }
        given.remove("quick");
        given.forEach((name, value) -> options.set(name, value));
        if (options.goals.contains("e2e")) {
            options.endToEndDefaults(given.keySet());
        }
        if (options.quick && !given.containsKey("boot-settle")) {
            // Proves that the Boot-built default starts, serves and closes, not that its production policy settles.
            options.bootSettle = options.settle;
        }
        if (!options.phases.isEmpty()) {
            // Phases of seconds: the window a quarter of the production 1 s, dwell and trial five windows (production: 60 s / 30 s).
            if (!given.containsKey("adaptive-window")) {
                options.adaptiveWindow = options.quick ? Duration.ofMillis(100) : Duration.ofMillis(250);
            }
            if (options.adaptiveDwell == null) {
                options.adaptiveDwell = options.adaptiveWindow.multipliedBy(5);
            }
            if (options.adaptiveTrial == null) {
                options.adaptiveTrial = options.adaptiveWindow.multipliedBy(5);
            }
            if (options.quick) {
                if (!given.containsKey("cycles")) {
                    options.cycles = 1;
                }
                if (!given.containsKey("phase-length")) {
                    options.phaseLength = Duration.ofSeconds(1);
                }
            }
        }
        if (options.adaptiveDwell == null) {
            options.adaptiveDwell = options.adaptiveWindow.multipliedBy(3);
        }
        if (options.adaptiveTrial == null) {
            options.adaptiveTrial = options.adaptiveWindow.multipliedBy(3);
        }
        if (options.maxPairs < options.pairs) {
            options.maxPairs = options.pairs;
        }
        if (options.out == null && options.goals.contains("near-check")) {
            String day = java.time.LocalDate.now().toString();
            Path base = Files.isDirectory(Path.of("docs", "benchmarks", "runs")) ? Path.of("docs", "benchmarks", "runs") : Path.of("results");
            options.out = base.resolve(day + "-near-check");
        }
        if (options.out == null) {
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
            Path base = Files.isDirectory(Path.of("benchmarks", "src")) ? Path.of("benchmarks", "results") : Path.of("results");
            options.out = base.resolve(stamp + (options.quick ? "-quick" : ""));
        }
        return options;
    }

    /**
     * The end-to-end run's own defaults where an option is not given: wrk's connections, slices of
     * whole seconds (wrk's unit) long enough for a p99 of tens of thousands of requests, and the
     * warm-up a Spring application's JIT needs.
     */
    private void endToEndDefaults(java.util.Set<String> given) {
        if (!given.contains("networks")) {
            this.networks = List.of(Network.LOOPBACK);
        }
        if (this.networks.size() != 1) {
            throw new IllegalArgumentException("--goals e2e runs on one network at a time, was --networks " + this.networks);
        }
        if (!given.contains("threads")) {
            this.threads = this.quick ? List.of(16) : List.of(16, 64, 256);
        }
        if (!given.contains("slice")) {
            this.slice = Duration.ofSeconds(this.quick ? 2 : 5);
        }
        if (!given.contains("ramp")) {
            this.ramp = this.quick ? Duration.ZERO : Duration.ofSeconds(1);
        }
        if (!given.contains("warm-up")) {
            this.warmUp = Duration.ofSeconds(this.quick ? 4 : 20);
        }
        if (!given.contains("settle")) {
            this.settle = Duration.ofSeconds(this.quick ? 10 : 100);
        }
        if (!given.contains("worker-heap")) {
            this.workerHeap = "1g";
        }
    }

    /**
     * The end-to-end run's delay between its applications and Redis.
     * @return {@code --delay} over {@code --networks delayed}, zero over loopback
     */
    Duration endToEndDelay() {
        return this.networks.get(0) == Network.DELAYED ? this.delay : Duration.ZERO;
    }

    private void set(String name, String value) {
        switch (name) {
            case "threads" -> this.threads = list(value, name, text -> positive(Integer.parseInt(text), name));
            case "sizes" -> this.sizes = list(value, name, BenchmarkOptions::bytes);
            case "networks" -> this.networks = list(value, name, text -> Network.valueOf(text.toUpperCase(Locale.ROOT)));
            case "backends" -> this.backends = list(value, name, text -> Backend.valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_')));
            case "targets" -> this.targets = list(value, name, String::trim);
            case "rounds" -> this.rounds = positive(Integer.parseInt(value), name);
            case "warm-up" -> this.warmUp = duration(value, name);
            case "measure" -> this.measure = duration(value, name);
            case "settle" -> this.settle = duration(value, name);
            case "boot-settle" -> this.bootSettle = duration(value, name);
            case "surge-settle" -> this.surgeSettle = duration(value, name);
            case "surge-hold" -> this.surgeHold = duration(value, name);
            case "adaptive-window" -> this.adaptiveWindow = duration(value, name);
            case "adaptive-dwell" -> this.adaptiveDwell = duration(value, name);
            case "adaptive-trial" -> this.adaptiveTrial = duration(value, name);
            case "delay" -> this.delay = duration(value, name);
            case "transport" -> this.transport = RedisTransport.of(value);
            case "transports" -> this.transports = list(value, name, RedisTransport::of);
            case "round-number" -> this.roundNumber = positive(Integer.parseInt(value), name);
            case "target-suffix" -> this.targetSuffix = value;
            case "timeout" -> this.timeout = duration(value, name);
            case "redis" -> this.addresses.put(Backend.REDIS, address(value, name));
            case "memcached" -> this.addresses.put(Backend.MEMCACHED, address(value, name));
            case "redis-cluster" -> this.addresses.put(Backend.REDIS_CLUSTER, address(value, name));
            case "out" -> this.out = Path.of(value);
            case "goals" -> this.goals = list(value, name, String::trim);
            case "pairs" -> this.pairs = positive(Integer.parseInt(value), name);
            case "max-pairs" -> this.maxPairs = positive(Integer.parseInt(value), name);
            case "batch" -> this.batch = positive(Integer.parseInt(value), name);
            case "slice" -> this.slice = duration(value, name);
            case "ramp" -> this.ramp = duration(value, name);
            case "max-outside" -> this.maxOutside = share(value, name);
            case "worker-heap" -> this.workerHeap = value.trim();
            case "phases" -> this.phases = list(value, name, text -> PhasePlan.named(text.trim()).name());
            case "cycles" -> this.cycles = positive(Integer.parseInt(value), name);
            case "phase-length" -> this.phaseLength = duration(value, name);
            case "check-reads" -> this.checkReads = Long.parseLong(value.trim().replace("_", "").replace(",", ""));
            case "check-faults" -> this.checkFaults = Integer.parseInt(value.trim());
            case "check-duration" -> this.checkDuration = duration(value, name);
            case "check-limit" -> this.checkLimit = duration(value, name);
            case "seed" -> this.seed = Long.parseLong(value.trim());
            default -> throw new IllegalArgumentException("Unknown option --" + name);
        }
    }

    /** The round label of this JVM's cells: its own rounds, or the one round a parent gave it. */
    int round(int ownRound) {
        return this.roundNumber > 0 ? this.roundNumber : ownRound;
    }

    /**
     * This run's arguments without the named options (and their values), for a child JVM.
     * @param names option names without dashes
     * @return the remaining arguments
     */
    List<String> argumentsWithout(String... names) {
        List<String> drop = List.of(names);
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < this.arguments.size(); i++) {
            String arg = this.arguments.get(i);
            String name = arg.startsWith("--") ? arg.substring(2).split("=", 2)[0] : null;
            boolean inline = arg.contains("=");
            if (name != null && drop.contains(name)) {
                if (!inline && !name.equals("quick")) {
                    i++;
                }
                continue;
            }
            kept.add(arg);
        }
        return kept;
    }

    boolean selects(String targetId) {
        if (this.targets.isEmpty()) {
            return true;
        }
        return this.targets.stream().anyMatch(pattern -> pattern.endsWith("*")
                ? targetId.startsWith(pattern.substring(0, pattern.length() - 1)) : targetId.equals(pattern));
    }

    private static <T> List<T> list(String value, String name, Function<String, T> parser) {
        List<T> values = new ArrayList<>();
        for (String part : value.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            try {
                values.add(parser.apply(part.trim()));
            }
            catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("--" + name + ": cannot read '" + part.trim() + "' (" + ex.getMessage() + ")", ex);
            }
        }
        if (values.isEmpty()) {
            throw new IllegalArgumentException("--" + name + " needs at least one value");
        }
        return List.copyOf(values);
    }

    static Duration duration(String value, String name) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        Duration duration;
        if (text.endsWith("ms")) {
            duration = Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
        }
        else if (text.endsWith("s")) {
            duration = Duration.ofMillis(Math.round(Double.parseDouble(text.substring(0, text.length() - 1)) * 1000));
        }
        else if (text.endsWith("m")) {
            duration = Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)) * 60);
        }
        else {
            throw new IllegalArgumentException("--" + name + ": '" + value + "' needs a unit: ms, s or m");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("--" + name + " must not be negative");
        }
        return duration;
    }

    static int bytes(String value) {
        String text = value.trim();
        String lower = text.toLowerCase(Locale.ROOT);
        long bytes;
        if (lower.endsWith("kib")) {
            bytes = Long.parseLong(text.substring(0, text.length() - 3)) * 1024;
        }
        else if (lower.endsWith("mib")) {
            bytes = Long.parseLong(text.substring(0, text.length() - 3)) * 1024 * 1024;
        }
        else if (lower.endsWith("b")) {
            bytes = Long.parseLong(text.substring(0, text.length() - 1).trim());
        }
        else {
            bytes = Long.parseLong(text);
        }
        // memcached's default item limit is 1 MiB including the item header.
        if (bytes < 1 || bytes > 512 * 1024) {
            throw new IllegalArgumentException("a value size must be between 1 B and 512 KiB, was " + text);
        }
        return (int) bytes;
    }

    private static String address(String value, String name) {
        int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw new IllegalArgumentException("--" + name + " needs HOST:PORT, was '" + value + "'");
        }
        Integer.parseInt(value.substring(colon + 1));
        return value;
    }

    private static double share(String value, String name) {
        String text = value.trim();
        double share = text.endsWith("%") ? Double.parseDouble(text.substring(0, text.length() - 1)) / 100 : Double.parseDouble(text);
        if (!(share > 0) || share > 1) {
            throw new IllegalArgumentException("--" + name + " must be a share of the machine above 0% and at most 100%, was " + text);
        }
        return share;
    }

    private static int positive(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException("--" + name + " must be at least 1, was " + value);
        }
        return value;
    }

    /** {@code --help}: print the usage and stop. */
    static final class UsageRequested extends RuntimeException {

        private static final long serialVersionUID = 1L;

        UsageRequested() {
            super("usage requested", null, false, false);
        }
    }
}
