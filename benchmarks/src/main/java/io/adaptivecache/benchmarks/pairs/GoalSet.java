package io.adaptivecache.benchmarks.pairs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Mix;
import io.adaptivecache.benchmarks.pairs.Goal.Measure;
import io.adaptivecache.benchmarks.targets.Targets;

/**
 * A named set of goals: what one verdict run measures. {@code redis} and {@code memcached} are
 * the speed goals (our template against the fastest peer clients, the adaptive mode against our
 * best fixed configuration, and the template a Spring Boot service gets from the starter,
 * {@value Targets#BOOT_DEFAULT}, beside the adaptive template the harness builds); {@code near} the
 * near cache's on a read-heavy load; {@code quick} proves the harness in CI.
 *
 * @param name the set's name, as given to {@code --goals}
 * @param goals its rows
 * @param mix what the callers of every workload ask for
 * @param staleness bounds on how stale the local tiers' reads are
 */
public record GoalSet(String name, List<Goal> goals, Mix mix, List<StalenessGoal> staleness) {

    private static final String BEST_JEDIS_POOL = "÷ best JedisPool (8 or 50)";
    private static final String LETTUCE_NIO = "÷ Lettuce, one shared connection, NIO";
    private static final String BEST_FIXED = "adaptive ÷ our best fixed configuration";
    private static final String CONTROL = "A/A control: the same target in two JVMs";
    private static final String CPU = "client CPU per call (lower is better)";
    private static final String OVERHEAD = "our overhead: ÷ the same client by hand";
    private static final String TRANSPORT = "io_uring ÷ NIO, the same strategy";
    private static final String DRIVER = "XMemcached driver ÷ spymemcached driver, the same strategy";
    private static final String XMEMCACHED = "÷ XMemcached (pool of 2)";
    private static final String NEAR = "÷ the same template without a local tier";
    private static final String REDISSON = "÷ Redisson's local cached map";
    private static final String NEAR_OURS = "ours-near-adaptive-jedis";
    private static final String SPRING_DATA = "RedisTemplate on our factory ÷ on LettuceConnectionFactory";
    private static final String BOOT_FIXED = "Boot-built default ÷ our best fixed configuration";
    private static final String BOOT_PEER = "Boot-built default ÷ the best peer as users run it";
    private static final String BOOT_CORE = "Boot-built default ÷ the adaptive template the harness builds";
    private static final String NEAR_BOOT = "÷ the Boot-built default without a local tier";

    /** The Boot-built default after settling against our best fixed configuration: at least 0.97x at every caller count. */
    static final Map<Integer, Double> BOOT_OVER_FIXED = Map.of(1, 0.97, 4, 0.97, 8, 0.97, 50, 0.97, 200, 0.97);

    /** The Boot-built default against the best peer as users run it: 1.5x at 50 and 200 callers, parity at 1, 4 and 8. */
    static final Map<Integer, Double> BOOT_OVER_PEERS = Map.of(1, 1.0, 4, 1.0, 8, 1.0, 50, 1.5, 200, 1.5);

    /** The Redis peers a user would pick: JedisPool at its best size. */
    static final List<String> JEDIS_POOLS = List.of("jedis-pool-8", "jedis-pool-50");

    /** Every fixed configuration of our Redis template: strategy, transport and POOLED driver. */
    static final List<String> REDIS_FIXED = List.of("ours-single@nio", "ours-multi@nio", "ours-single@io_uring",
            "ours-multi@io_uring", "ours-jedis-pooled-8");

    /** Every fixed configuration of our memcached template: strategy and driver. */
    static final List<String> MEMCACHED_FIXED = List.of("ours-single", "ours-multi", "ours-pooled-8", "ours-x-single",
            "ours-x-multi", "ours-x-pooled-8");

    /**
     * Checks the set.
     * @param name its name
     * @param goals its rows
     */
    public GoalSet {
        goals = List.copyOf(goals);
        staleness = List.copyOf(staleness);
    }

    /**
     * A set of ratio goals on the strategy benchmarks' mix ({@link Mix#MIXED_UNIFORM}).
     * @param name its name
     * @param goals its rows
     */
    public GoalSet(String name, List<Goal> goals) {
        this(name, goals, Mix.MIXED_UNIFORM, List.of());
    }

    /**
     * A set by name.
     * @param name {@code redis}, {@code memcached}, {@code near}, {@code overhead}, {@code spring-data} or {@code quick}
     * @return the set
     */
    public static GoalSet named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "redis" -> redis();
            case "memcached" -> memcached();
            case "quick" -> quick();
            case "overhead" -> overhead();
            case "near" -> near();
            case "spring-data" -> springData();
            default -> throw new IllegalArgumentException("Unknown goal set '" + name + "'; known: redis, memcached, near, overhead,"
                    + " spring-data, quick");
        };
    }

    /**
     * Redis: at 1 and 8 callers our blocking POOLED and the adaptive template reach 0.95x of the best
     * JedisPool; at 50 and 200 callers our template on io_uring reaches 1.4x of it and 1.3x of one
     * shared Lettuce connection on NIO; adaptive reaches 0.95x of our best fixed configuration; and
     * the Boot-built default's goals ({@link #bootDefault}).
     * @return the set
     */
    static GoalSet redis() {
        Backend redis = Backend.REDIS;
        Map<Integer, Double> low = Map.of(1, 0.95, 8, 0.95);
        Map<Integer, Double> lowAndHigh = Map.of(1, 0.95, 8, 0.95, 50, 1.4, 200, 1.4);
        Map<Integer, Double> high = Map.of(50, 1.4, 200, 1.4);
        Map<Integer, Double> overLettuce = Map.of(50, 1.3, 200, 1.3);
        Map<Integer, Double> everywhere = Map.of(1, 0.95, 8, 0.95, 50, 0.95, 200, 0.95);
        List<Goal> goals = new ArrayList<>();
        goals.add(throughput("ours-jedis-pooled-8", BEST_JEDIS_POOL, redis, JEDIS_POOLS, low));
        goals.add(throughput("ours-adaptive-jedis@io_uring", BEST_JEDIS_POOL, redis, JEDIS_POOLS, lowAndHigh));
        goals.add(throughput("ours-adaptive@io_uring", BEST_JEDIS_POOL, redis, JEDIS_POOLS, high));
        goals.add(throughput("ours-multi@io_uring", BEST_JEDIS_POOL, redis, JEDIS_POOLS, high));
        goals.add(throughput("ours-adaptive-jedis@io_uring", LETTUCE_NIO, redis, List.of("lettuce-single@nio"), overLettuce));
        goals.add(throughput("ours-adaptive@io_uring", LETTUCE_NIO, redis, List.of("lettuce-single@nio"), overLettuce));
        goals.add(throughput("ours-multi@io_uring", LETTUCE_NIO, redis, List.of("lettuce-single@nio"), overLettuce));
        goals.add(throughput("ours-single@io_uring", LETTUCE_NIO, redis, List.of("lettuce-single@nio"), overLettuce));
        goals.add(throughput("ours-adaptive-jedis@io_uring", BEST_FIXED, redis, REDIS_FIXED, everywhere));
        goals.add(throughput("ours-adaptive@io_uring", BEST_FIXED, redis, REDIS_FIXED, everywhere));
        goals.addAll(bootDefault(redis, REDIS_FIXED, PhaseGoals.REDIS_PEERS, "ours-adaptive-jedis@io_uring"));
        goals.add(control(redis, "jedis-pool-8"));
        // Our overhead: the template against the same client written by hand, and the blocking pool against JedisPool.
        goals.add(throughput("ours-single@nio", OVERHEAD, redis, List.of("lettuce-single@nio"), Map.of()));
        goals.add(throughput("ours-jedis-pooled-8", OVERHEAD, redis, List.of("jedis-pool-8"), Map.of()));
        goals.add(cpu("ours-single@nio", redis, "lettuce-single@nio"));
        goals.add(cpu("ours-jedis-pooled-8", redis, "jedis-pool-8"));
        // What the transport gives: the same strategy on io_uring against NIO.
        goals.add(throughput("ours-single@io_uring", TRANSPORT, redis, List.of("ours-single@nio"), Map.of()));
        goals.add(throughput("ours-multi@io_uring", TRANSPORT, redis, List.of("ours-multi@nio"), Map.of()));
        return new GoalSet("redis", goals);
    }

    /**
     * memcached: our template on the XMemcached driver (MULTI and adaptive) reaches 0.9x of
     * XMemcached at every caller count, and adaptive 0.95x of our best fixed configuration of
     * either driver; the spymemcached driver against XMemcached for information; and the
     * Boot-built default's goals ({@link #bootDefault}), on the starter's default driver.
     * @return the set
     */
    static GoalSet memcached() {
        Backend memcached = Backend.MEMCACHED;
        Map<Integer, Double> parity = Map.of(1, 0.9, 8, 0.9, 50, 0.9, 200, 0.9);
        Map<Integer, Double> everywhere = Map.of(1, 0.95, 8, 0.95, 50, 0.95, 200, 0.95);
        List<Goal> goals = new ArrayList<>();
        goals.add(throughput("ours-x-multi", XMEMCACHED, memcached, List.of("xmemcached"), parity));
        goals.add(throughput("ours-x-adaptive", XMEMCACHED, memcached, List.of("xmemcached"), parity));
        goals.add(throughput("ours-multi", XMEMCACHED, memcached, List.of("xmemcached"), Map.of()));
        goals.add(throughput("ours-adaptive", XMEMCACHED, memcached, List.of("xmemcached"), Map.of()));
        goals.add(throughput("ours-x-adaptive", BEST_FIXED, memcached, MEMCACHED_FIXED, everywhere));
        goals.add(throughput("ours-adaptive", BEST_FIXED, memcached, MEMCACHED_FIXED, Map.of()));
        goals.addAll(bootDefault(memcached, MEMCACHED_FIXED, PhaseGoals.MEMCACHED_PEERS, "ours-adaptive"));
        goals.add(control(memcached, "xmemcached"));
        // Our overhead: the template against the same strategy written by hand on spymemcached.
        goals.add(throughput("ours-multi", OVERHEAD, memcached, List.of("spy-array"), Map.of()));
        goals.add(cpu("ours-multi", memcached, "spy-array"));
        goals.add(cpu("ours-x-multi", memcached, "xmemcached"));
        // What the driver gives: the same strategy on XMemcached against spymemcached.
        goals.add(throughput("ours-x-multi", DRIVER, memcached, List.of("ours-multi"), Map.of()));
        goals.add(throughput("ours-x-single", DRIVER, memcached, List.of("ours-single"), Map.of()));
        return new GoalSet("memcached", goals);
    }

    /**
     * The template a Spring Boot service gets from the starter with only the server's address set,
     * on the production timings, beside the adaptive template the harness builds: after settling at
     * least 0.97x of our best fixed configuration at every caller count, and against the best peer
     * as users run it 1.5x at 50 and 200 callers and parity at 1 and 8; against the harness's own
     * adaptive template (the same policy on the run's shorter timings, the same driver) for
     * information, which prices what the Boot context and the production timings change.
     * @param backend the server
     * @param fixed our fixed configurations on it
     * @param peers the peers as users run them
     * @param coreBuilt the adaptive template the harness builds with the starter's default driver
     * @return the goals
     */
    static List<Goal> bootDefault(Backend backend, List<String> fixed, List<String> peers, String coreBuilt) {
        return List.of(throughput(Targets.BOOT_DEFAULT, BOOT_FIXED, backend, fixed, BOOT_OVER_FIXED),
                throughput(Targets.BOOT_DEFAULT, BOOT_PEER, backend, peers, BOOT_OVER_PEERS),
                throughput(Targets.BOOT_DEFAULT, BOOT_CORE, backend, List.of(coreBuilt), Map.of()));
    }

    /**
     * Our per-call bookkeeping: client CPU per call of the template against the same client written
     * by hand, at most 5% more at 1 and 8 callers (Lettuce shared, JedisPool, one XMemcached client,
     * spymemcached clients round-robin; and our MULTI on XMemcached against XMemcached's own pool of
     * two connections, which is one client where ours is two), with an
     * A/A control on CPU per call so that the instrument's own spread is on the page.
     * @return the set
     */
    static GoalSet overhead() {
        Backend redis = Backend.REDIS;
        Backend memcached = Backend.MEMCACHED;
        Map<Integer, Double> within5 = Map.of(1, 1.05, 8, 1.05);
        List<Goal> goals = new ArrayList<>();
        goals.add(cpu("ours-single@nio", redis, "lettuce-single@nio", within5));
        goals.add(cpu("ours-jedis-pooled-8", redis, "jedis-pool-8", within5));
        goals.add(cpuControl(redis, "jedis-pool-8"));
        goals.add(cpu("ours-x-single", memcached, "xmemcached-1", within5));
        goals.add(cpu("ours-x-multi", memcached, "xmemcached", within5));
        goals.add(cpuControl(memcached, "xmemcached"));
        goals.add(cpu("ours-multi", memcached, "spy-array", within5));
        return new GoalSet("overhead", goals);
    }

    /**
     * The near cache, on a read-heavy load (95% gets, Zipf keys): at 8 and 50 callers it gives at
     * least 5x the throughput of the same template without it (the default configuration: adaptive,
     * Jedis for POOLED), with a staleness p99 of at most 10 ms; Redisson's local cached map beside
     * it for information, with its own staleness figures, and the same ratio against the Boot-built
     * default template for information.
     * @return the set
     */
    static GoalSet near() {
        Backend redis = Backend.REDIS;
        List<Goal> goals = new ArrayList<>();
        goals.add(throughput(NEAR_OURS, NEAR, redis, List.of("ours-adaptive-jedis"), Map.of(8, 5.0, 50, 5.0)));
        goals.add(throughput("redisson-local", NEAR, redis, List.of("ours-adaptive-jedis"), Map.of()));
        goals.add(throughput(NEAR_OURS, REDISSON, redis, List.of("redisson-local"), Map.of()));
        goals.add(throughput(NEAR_OURS, NEAR_BOOT, redis, List.of(Targets.BOOT_DEFAULT), Map.of()));
        goals.add(control(redis, NEAR_OURS));
        return new GoalSet("near", goals, Mix.READ_HEAVY_ZIPF, List.of(
                new StalenessGoal(NEAR_OURS, redis, Map.of(8, 10.0, 50, 10.0)),
                new StalenessGoal("redisson-local", redis, Map.of())));
    }

    /**
     * Spring Data Redis's RedisTemplate on adaptive-cache's connection factory (over a template on
     * SINGLE, MULTI and POOLED(8)) against the same RedisTemplate on Boot's LettuceConnectionFactory:
     * its default of one shared connection, and its commons-pool2 pool of 8 for POOLED. Our SINGLE
     * is the like-for-like pair: at most 5% more client CPU per call at 1 and 8 callers, and at least
     * 0.95x the throughput at every caller count; MULTI and POOLED are on the page for information.
     * An A/A control on Boot's default shows the instrument's own spread.
     * @return the set
     */
    static GoalSet springData() {
        Backend redis = Backend.REDIS;
        List<Goal> goals = new ArrayList<>();
        goals.add(throughput("sdr-ours-single", SPRING_DATA, redis, List.of("sdr-shared"), Map.of(1, 0.95, 8, 0.95, 50, 0.95, 200, 0.95)));
        goals.add(throughput("sdr-ours-multi", SPRING_DATA, redis, List.of("sdr-shared"), Map.of()));
        goals.add(throughput("sdr-ours-pooled-8", SPRING_DATA, redis, List.of("sdr-pool-8"), Map.of()));
        goals.add(control(redis, "sdr-shared"));
        goals.add(cpu("sdr-ours-single", redis, "sdr-shared", Map.of(1, 1.05, 8, 1.05)));
        goals.add(cpuControl(redis, "sdr-shared"));
        return new GoalSet("spring-data", goals);
    }

    /**
     * A short set for CI: one comparison, one A/A control and one CPU comparison on Redis, and the
     * staleness figures of our near cache (without a bound: CI proves the instrument, not a figure).
     * @return the set
     */
    static GoalSet quick() {
        Backend redis = Backend.REDIS;
        return new GoalSet("quick", List.of(
                throughput("ours-jedis-pooled-8", BEST_JEDIS_POOL, redis, List.of("jedis-pool-8"), Map.of(1, 0.95, 50, 0.95)),
                control(redis, "jedis-pool-8"),
                cpu("ours-jedis-pooled-8", redis, "jedis-pool-8")), Mix.MIXED_UNIFORM,
                List.of(new StalenessGoal(NEAR_OURS, redis, Map.of())));
    }

    /**
     * The targets of a backend's goals, numerators first, each once.
     * @param backend the server
     * @return target ids
     */
    public List<String> targets(Backend backend) {
        Set<String> targets = new LinkedHashSet<>();
        this.goals.stream().filter(goal -> goal.backend() == backend).forEach(goal -> targets.add(goal.numerator()));
        this.goals.stream().filter(goal -> goal.backend() == backend).forEach(goal -> targets.addAll(goal.bestOf()));
        this.staleness.stream().filter(goal -> goal.backend() == backend).forEach(goal -> targets.add(goal.target()));
        return List.copyOf(targets);
    }

    /** @return the backends the set measures, in order */
    public List<Backend> backends() {
        return java.util.stream.Stream.concat(this.goals.stream().map(Goal::backend),
                this.staleness.stream().map(StalenessGoal::backend)).distinct().toList();
    }

    private static Goal throughput(String numerator, String panel, Backend backend, List<String> bestOf,
            Map<Integer, Double> thresholds) {
        String label = numerator + " ÷ " + (bestOf.size() == 1 ? bestOf.get(0) : "best of " + String.join(", ", bestOf));
        return new Goal(label, panel, backend, numerator, bestOf, Measure.THROUGHPUT, thresholds, false);
    }

    private static Goal control(Backend backend, String target) {
        return new Goal("A/A: " + target + " ÷ " + target + " in a second JVM", CONTROL, backend, target + TWIN, List.of(target),
                Measure.THROUGHPUT, Map.of(), true);
    }

    private static Goal cpuControl(Backend backend, String target) {
        return new Goal("A/A: client CPU per call, " + target + " ÷ " + target + " in a second JVM", CONTROL, backend, target + TWIN,
                List.of(target), Measure.CPU_PER_CALL, Map.of(), true);
    }

    private static Goal cpu(String numerator, Backend backend, String denominator) {
        return cpu(numerator, backend, denominator, Map.of());
    }

    private static Goal cpu(String numerator, Backend backend, String denominator, Map<Integer, Double> thresholds) {
        return new Goal("client CPU per call: " + numerator + " ÷ " + denominator, CPU, backend, numerator,
                List.of(denominator), Measure.CPU_PER_CALL, thresholds, false);
    }

    /** The suffix of an A/A twin: the same target in a JVM of its own. */
    public static final String TWIN = "#2";
}
