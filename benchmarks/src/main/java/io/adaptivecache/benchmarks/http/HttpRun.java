package io.adaptivecache.benchmarks.http;

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

import io.adaptivecache.benchmarks.http.app.Item;
import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.pairs.HostLoad;
import io.adaptivecache.benchmarks.pairs.PairedRun;
import io.adaptivecache.benchmarks.servers.BenchmarkServers;

/**
 * An end-to-end run: Redis, then every application in a JVM of its own; for each connection
 * count, each application is filled (every id asked for once) and warmed alone under wrk until its
 * JIT stops compiling; then the applications take turns in slices, one at a time, cycle after
 * cycle, in the pair harness's order (shuffled, then reversed in the next cycle). Around each
 * slice the machine's CPU counters and the application's CPU time are read. After the least
 * number of cycles a connection count stops once its goals are decided; otherwise it gets more
 * cycles, a batch at a time, up to the most.
 */
final class HttpRun {

    /** Each warm-up step's length: the JIT's compilation time is read after each. */
    static final Duration WARM_UP_STEP = Duration.ofSeconds(2);

    /** Compilation within one warm-up step at or below which the JIT counts as done: 2% of one core. */
    static final long QUIET_COMPILE_MILLIS = WARM_UP_STEP.toMillis() / 50;

    /** Requests in flight while a cache is filled. */
    private static final int FILL_PARALLEL = 8;

    private static final Duration START_LIMIT = Duration.ofMinutes(3);

    private final HttpBenchmark.Settings settings;

    HttpRun(HttpBenchmark.Settings settings) {
        this.settings = settings;
    }

    /**
     * Runs every connection count and writes {@code slices.csv} as it goes.
     * @return every slice and warm-up
     * @throws Exception if wrk is missing, or an application or Redis fails
     */
    Result run() throws Exception {
        HttpBenchmark.Settings s = this.settings;
        List<HttpGoal> goals = HttpGoal.among(HttpGoal.all(), s.apps());
        if (goals.isEmpty()) {
            throw new IllegalArgumentException("No comparison has both of its applications among --targets " + s.apps()
                    + "; ids: " + HttpGoal.apps(HttpGoal.all()));
        }
        List<String> apps = HttpGoal.apps(goals);
        Files.createDirectories(s.out());
        // Before anything starts: a machine without wrk learns it at once.
        Wrk wrk = Wrk.locate(s.out(), s.timeout());
        printPlan(apps);
        Instant started = Instant.now();
        List<HttpSlice> slices = new ArrayList<>();
        List<WarmUp> warmUps = new ArrayList<>();
        Map<String, AppProcess> running = new LinkedHashMap<>();
        Map<Backend, String> given = s.redisAddress() == null ? Map.of() : Map.of(Backend.REDIS, s.redisAddress());
        Network network = s.delay().isZero() ? Network.LOOPBACK : Network.DELAYED;
        try (BenchmarkServers servers = new BenchmarkServers(List.of(Backend.REDIS), given, network == Network.DELAYED,
                s.delay().toMillis());
                HttpSliceLog log = new HttpSliceLog(s.out())) {
            String[] redis = servers.address(Backend.REDIS, network).split(":");
            try {
                for (String app : apps) {
                    Path appLog = s.out().resolve("jvm").resolve(app.replace('#', '_') + ".log");
                    running.put(app, AppProcess.start(app, redis[0], Integer.parseInt(redis[1]), s.appHeap(), appLog, START_LIMIT));
                    System.out.println("Started " + app + " on port " + running.get(app).port());
                }
                for (int connections : s.connections()) {
                    for (AppProcess app : running.values()) {
                        WarmUp warmUp = warmUp(wrk, app, connections);
                        warmUps.add(warmUp);
                        System.out.println(warmUp.line());
                    }
                    slices.addAll(cycles(wrk, running, goals, connections, log));
                }
            }
            finally {
                // Before Redis stops, so that no application is left reconnecting to it.
                running.values().forEach(AppProcess::close);
            }
        }
        Map<String, String> descriptions = new LinkedHashMap<>();
        apps.forEach(app -> descriptions.put(app, running.get(app).variant().description()));
        return new Result(slices, goals, warmUps, descriptions, wrk.version(), started, Instant.now());
    }

    /**
     * Fills an application's cache and loads it alone, as it will be measured, until at least the
     * warm-up has passed and its JIT compiled no more than {@link #QUIET_COMPILE_MILLIS} in the
     * last step, or the settle limit is reached.
     */
    private WarmUp warmUp(Wrk wrk, AppProcess app, int connections) throws IOException {
        HttpBenchmark.Settings s = this.settings;
        long fillStart = System.nanoTime();
        app.fill(Item.KEYS, FILL_PARALLEL);
        Duration fill = Duration.ofNanos(System.nanoTime() - fillStart);
        long loadStart = System.nanoTime();
        long compiled = app.state(false).compileMillis();
        long lastStep;
        long errors = 0;
        Duration limit = s.warmUp().plus(s.settle());
        int step = 0;
        while (true) {
            WrkResult result = wrk.run(app.port(), connections, WARM_UP_STEP, 1_000_000L + step++);
            errors += result.errors();
            long now = app.state(false).compileMillis();
            lastStep = now - compiled;
            compiled = now;
            Duration elapsed = Duration.ofNanos(System.nanoTime() - loadStart);
            if (elapsed.compareTo(s.warmUp()) >= 0 && lastStep <= QUIET_COMPILE_MILLIS || elapsed.compareTo(limit) >= 0) {
                break;
            }
        }
        Duration load = Duration.ofNanos(System.nanoTime() - loadStart);
        AppState state = app.state(true);
        return new WarmUp(app.id(), connections, fill, load, lastStep, lastStep <= QUIET_COMPILE_MILLIS, errors, state);
    }

    private List<HttpSlice> cycles(Wrk wrk, Map<String, AppProcess> running, List<HttpGoal> goals, int connections,
            HttpSliceLog log) throws IOException {
        HttpBenchmark.Settings s = this.settings;
        List<String> apps = new ArrayList<>(running.keySet());
        List<HttpSlice> slices = new ArrayList<>();
        int cycle = 0;
        while (true) {
            cycle++;
            List<String> order = PairedRun.order(apps, cycle);
            for (int position = 0; position < order.size(); position++) {
                HttpSlice slice = slice(wrk, running.get(order.get(position)), connections, cycle, position);
                slices.add(slice);
                log.append(slice);
                System.out.println(progress(slice));
            }
            List<HttpVerdicts.Row> rows = HttpVerdicts.evaluate(goals, slices, s.maxDisturbanceCores());
            if (!HttpVerdicts.moreCycles(cycle, rows, s.pairs(), s.maxPairs(), s.batch())) {
                rows.forEach(row -> System.out.printf(Locale.ROOT, "  %d connections, %s, %s: %s %s%n", connections,
                        row.goal().label(), row.goal().measure().label(), row.interval().format(), row.status()));
                return slices;
            }
        }
    }

    private HttpSlice slice(Wrk wrk, AppProcess app, int connections, int cycle, int position) throws IOException {
        HttpBenchmark.Settings s = this.settings;
        if (!s.ramp().isZero()) {
            wrk.run(app.port(), connections, s.ramp(), 2_000_000L + cycle);
        }
        AppState before = app.state(false);
        Duration cpuBefore = app.cpuTime();
        HostLoad.Snapshot hostBefore = HostLoad.take();
        // The same ids for every application of a cycle.
        WrkResult result = wrk.run(app.port(), connections, s.slice(), cycle);
        HostLoad.Snapshot hostAfter = HostLoad.take();
        Duration cpu = app.cpuTime().minus(cpuBefore);
        // Collected now, so that this slice's garbage is not collected during this application's next one.
        AppState after = app.state(true);
        HostLoad.Share share = hostBefore == null || hostAfter == null ? HostLoad.Share.UNKNOWN : hostAfter.since(hostBefore);
        double cpuPerRequest = result.requests() == 0 ? 0 : cpu.toNanos() / 1000.0 / result.requests();
        return new HttpSlice(connections, cycle, position, app.id(), result.requests(), result.requestsPerSecond(), result.errors(),
                result.p50Micros(), result.p99Micros(), cpuPerRequest, after.loads() - before.loads(), share.outside(), share.steal(),
                share.irq(), share.ours(), after.strategy(), after.switches());
    }

    private static String progress(HttpSlice slice) {
        return String.format(Locale.ROOT, "[%3d conn, cycle %2d] %-18s %,9.0f req/s  p99 %7.2f ms  app CPU %5.1f µs/req  loads %d"
                + "  outside %.2f%s", slice.connections(), slice.cycle(), slice.app(), slice.requestsPerSecond(),
                slice.p99Micros() / 1000, slice.appCpuMicrosPerRequest(), slice.loads(), slice.outsideCores(),
                slice.errors() > 0 ? "  ERRORS " + slice.errors() : "");
    }

    private void printPlan(List<String> apps) {
        HttpBenchmark.Settings s = this.settings;
        // Per slice: the ramp, the slice, wrk's start and the state calls around it.
        long sliceMillis = s.ramp().toMillis() + s.slice().toMillis() + 500;
        long fillMillis = 5_000;
        long perCount = apps.size() * (fillMillis + s.warmUp().toMillis() + 2_000);
        long least = 10_000L * apps.size() + s.connections().size() * (perCount + (long) s.pairs() * apps.size() * sliceMillis);
        long most = 10_000L * apps.size() + s.connections().size() * (perCount + apps.size() * s.settle().toMillis()
                + (long) s.maxPairs() * apps.size() * sliceMillis);
        System.out.printf(Locale.ROOT, "End to end: %s at %s connections; %d to %d cycles per connection count, slices of %d s after"
                + " %d s of ramp; about %d min, at most %d min; results in %s%n", String.join(", ", apps), s.connections(), s.pairs(),
                s.maxPairs(), s.slice().toSeconds(), s.ramp().toSeconds(), least / 60_000 + 1, most / 60_000 + 1, s.out());
    }

    /**
     * How one application was warmed for one connection count.
     * @param app the application
     * @param connections the connection count
     * @param fill how long asking for every id once took
     * @param load how long it was then loaded
     * @param lastStepCompileMillis the JIT's compilation time in the last step
     * @param quiet whether that was at most {@link #QUIET_COMPILE_MILLIS}
     * @param errors failed requests during the warm-up
     * @param state the application's state at the end
     */
    record WarmUp(String app, int connections, Duration fill, Duration load, long lastStepCompileMillis, boolean quiet, long errors,
            AppState state) {

        /** @return a progress line */
        String line() {
            return String.format(Locale.ROOT, "Warmed %s at %d connections: filled in %.1f s, loaded %.0f s, JIT %d ms in the last %d s"
                    + " (%s), %d loads in all, %s, %s%s", this.app, this.connections, this.fill.toMillis() / 1000.0,
                    this.load.toMillis() / 1000.0, this.lastStepCompileMillis, WARM_UP_STEP.toSeconds(),
                    this.quiet ? "done" : "STILL COMPILING", this.state.loads(), this.state.transport(), this.state.strategy(),
                    this.errors > 0 ? ", " + this.errors + " ERRORS" : "");
        }
    }

    /**
     * What a run measured.
     * @param slices every slice
     * @param goals the comparisons measured
     * @param warmUps every application's warm-up at every connection count
     * @param apps each application's id and what it runs
     * @param wrkVersion wrk's version line
     * @param started when it started
     * @param finished when it finished
     */
    record Result(List<HttpSlice> slices, List<HttpGoal> goals, List<WarmUp> warmUps, Map<String, String> apps, String wrkVersion,
            Instant started, Instant finished) {
    }
}
