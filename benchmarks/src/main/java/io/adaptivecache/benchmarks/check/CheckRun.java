package io.adaptivecache.benchmarks.check;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.near.NearCacheTemplate;

/**
 * A check run: on a server it starts, near-cache instances read and write a few hot keys and
 * plain writers write them too, in a seeded random mix, while a {@link FaultDriver} injects
 * faults; every operation is recorded and the history checked ({@link HistoryCheck}) against the
 * near caches' staleness bound.
 *
 * <p>The mix is made to meet the cases where a near cache can go wrong: some keys are written
 * hundreds of times a second and some about once a second (a stale copy of a quiet key lives
 * until someone writes it again), each near-cache writer now and then stores a key at the same
 * instant as a plain write of it (its own write and another's reported together), plain writers
 * give keys that near caches hold a time to live of a few tens of milliseconds, and thousands of
 * other keys with a TTL make Redis's active expiry slow to find an expired one.
 *
 * <p>The run is cut into segments, each checked on its own so that a long run needs little
 * memory: a segment starts with every key flushed (recorded: the initial state) and waits the
 * bound before its first read, so that a value from an earlier segment is a violation; it ends
 * with the faults undone and the writers idle for longer than a command can take, so that no
 * write of it lands in the next.
 */
public final class CheckRun {

    private static final double KEY_RATIO = 0.35;
    private static final long VALUE_SPACE = 1_000_000_000_000L;

    private final Settings settings;
    private final Consumer<String> log;
    private final AtomicLong sequence = new AtomicLong();
    private final Map<FaultDriver.Fault, AtomicInteger> faults = FaultDriver.zeroCounts();
    private final List<String> keys = new ArrayList<>();
    private final List<String> processes = new ArrayList<>();
    private volatile boolean running;

    /**
     * A run.
     * @param settings what to run
     * @param log where progress lines go
     */
    public CheckRun(Settings settings, Consumer<String> log) {
        this.settings = settings;
        this.log = log;
        for (int k = 0; k < settings.keys(); k++) {
            keys.add(Setup.key(k));
        }
        for (int i = 0; i < settings.instances(); i++) {
            processes.add("near-" + i);
        }
        for (int i = 0; i < settings.instances(); i++) {
            processes.add("plain racing near-" + i);
        }
        for (int j = 0; j < settings.plainWriters(); j++) {
            processes.add("plain-" + j);
        }
        processes.add("faults");
    }

    /**
     * What to run.
     * @param backend redis or memcached
     * @param seed the seed of every random choice (the timing of threads is not seeded)
     * @param keys how many hot keys
     * @param instances near-cache instances
     * @param readers reading threads per instance
     * @param plainWriters writers that do not track
     * @param duration the least time to run
     * @param minReads the least reads to check
     * @param faultsEach the least faults of each kind
     * @param limit the most time to run, targets met or not
     * @param segment the length of a segment (checked on its own)
     * @param faultGapMin the least time between faults
     * @param faultGapMax the most
     * @param readPause the pause after each read of a reading thread
     * @param writePause the mean pause after each write of a writing thread
     * @param heartbeat Redis: the invalidation sources' heartbeat interval (the timeout is twice it)
     * @param maxStaleness memcached: the near caches' max staleness
     * @param fillers Redis: other keys with a TTL kept on the server
     */
    public record Settings(Backend backend, long seed, int keys, int instances, int readers, int plainWriters, Duration duration,
            long minReads, int faultsEach, Duration limit, Duration segment, Duration faultGapMin, Duration faultGapMax,
            Duration readPause, Duration writePause, Duration heartbeat, Duration maxStaleness, int fillers) {

        /**
         * The defaults: 8 keys, 3 instances of 3 readers (6 for the one behind the proxy) and a
         * writer, 2 plain writers, a bound of 300 ms on Redis (heartbeat 100 ms, timeout 200 ms)
         * and 100 ms on memcached, 20,000 fillers on Redis, faults 300 to 900 ms apart, one
         * segment per 30 s.
         * @param backend redis or memcached
         * @param seed the seed
         * @param duration the least time to run
         * @param minReads the least reads to check
         * @param faultsEach the least faults of each kind
         * @param limit the most time to run
         * @return the settings
         */
        public static Settings of(Backend backend, long seed, Duration duration, long minReads, int faultsEach, Duration limit) {
            return new Settings(backend, seed, 8, 3, 3, 2, duration, minReads, faultsEach, limit, Duration.ofSeconds(30),
                    Duration.ofMillis(300), Duration.ofMillis(900), Duration.ofNanos(150_000), Duration.ofMillis(5),
                    Duration.ofMillis(100), Duration.ofMillis(100), 20_000);
        }
    }

    /**
     * What a run found.
     * @param settings what ran
     * @param result the check of every segment
     * @param faults faults injected, by kind
     * @param writes writes recorded
     * @param segments segments run
     * @param elapsed how long it ran
     * @param bound the bound checked against
     * @param setup the server and instances, for the report
     */
    public record Outcome(Settings settings, HistoryCheck.Result result, Map<FaultDriver.Fault, Integer> faults, long writes,
            int segments, Duration elapsed, Duration bound, String setup) {

        /** @return whether the run met its targets: enough reads and faults (violations are judged apart) */
        public boolean targetsMet() {
            return result.reads() >= settings.minReads() && faults.values().stream().allMatch(count -> count >= settings.faultsEach());
        }
    }

    /**
     * Runs segments until the targets are met (or the limit is reached), checking each.
     * @return what it found
     * @throws Exception if the server or the near caches cannot be started
     */
    public Outcome run() throws Exception {
        long started = System.nanoTime();
        long deadline = started + settings.limit().toNanos();
        try (Setup setup = settings.backend() == Backend.MEMCACHED ? Setup.memcached(settings.instances(), settings.maxStaleness())
                : Setup.redis(settings.instances(), settings.heartbeat(), settings.fillers())) {
            // Only the faults this server takes are counted and awaited (memcached has no tracking connection, databases
            // or write pause): waiting for the others would run every memcached check to its limit.
            faults.keySet().retainAll(setup.faults());
            long bound = setup.bound().toNanos();
            HistoryCheck.Result total = HistoryCheck.Result.empty(bound);
            long writes = 0;
            int segment = 0;
            SplittableRandom seeds = new SplittableRandom(settings.seed());
            while (true) {
                long now = System.nanoTime();
                long left = Math.min(deadline - now, Math.max(started + settings.duration().toNanos() - now, 0));
                boolean more = segment == 0 || (now < deadline && (left > 0 || !targetsMet(total)));
                if (!more) {
                    break;
                }
                // Within the least duration, segments end with it; past it (targets still unmet), full segments.
                long length = left > 0 ? Math.min(settings.segment().toNanos(), Math.max(left, TimeUnit.SECONDS.toNanos(5)))
                        : settings.segment().toNanos();
                List<Op> history = segment(setup, seeds.split(), Math.min(length, Math.max(deadline - now, 1)));
                HistoryCheck.Result result = HistoryCheck.check(history, bound, keys, processes, started);
                writes += history.stream().filter(op -> op.kind().isWrite()).count();
                total = total.plus(result);
                segment++;
                log.accept(String.format("%s segment %d: %s; faults %s", settings.backend().label(), segment, result.summary(),
                        faultCounts()));
            }
            return new Outcome(settings, total, faultCounts(), writes, segment, Duration.ofNanos(System.nanoTime() - started),
                    setup.bound(), setup.describe());
        }
    }

    private boolean targetsMet(HistoryCheck.Result total) {
        return total.reads() >= settings.minReads() && faults.values().stream().allMatch(count -> count.get() >= settings.faultsEach());
    }

    private Map<FaultDriver.Fault, Integer> faultCounts() {
        Map<FaultDriver.Fault, Integer> counts = new EnumMap<>(FaultDriver.Fault.class);
        faults.forEach((fault, count) -> counts.put(fault, count.get()));
        return counts;
    }

    /** One segment: the initial flush, the load and the faults for {@code length}, then quiet until no write can land. */
    private List<Op> segment(Setup setup, SplittableRandom random, long length) throws InterruptedException {
        int faultProcess = processes.size() - 1;
        List<Op> initial = new ArrayList<>();
        long start = System.nanoTime();
        setup.flushAll();
        initial.add(Op.write(faultProcess, Op.Kind.FLUSH, Op.ALL_KEYS, Op.ABSENT, 0, start, System.nanoTime(), true));
        setup.refill();
        long servingBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (setup.nears.stream().anyMatch(near -> !near.isServingLocally()) && System.nanoTime() < servingBy) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        // Any copy from before the flush is now older than the bound: serving it is a violation.
        pause(setup.bound().toNanos() + TimeUnit.MILLISECONDS.toNanos(50));

        List<List<Op>> logs = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        running = true;
        for (int i = 0; i < setup.nears.size(); i++) {
            NearCacheTemplate near = setup.nears.get(i);
            int instance = i;
            // The instance behind the proxy has more readers: while its reads are slow, they overlap on a key.
            for (int r = 0; r < (i == 0 ? 2 : 1) * settings.readers(); r++) {
                threads.add(worker("near-" + i + "-reader-" + r, logs, random.split(), (ops, rnd) -> read(near, instance, ops, rnd)));
            }
            threads.add(worker("near-" + i + "-writer", logs, random.split(),
                    (ops, rnd) -> nearWrite(setup, near, instance, ops, rnd)));
        }
        for (int j = 0; j < settings.plainWriters(); j++) {
            int process = 2 * settings.instances() + j;
            threads.add(worker("plain-" + j, logs, random.split(), (ops, rnd) -> plainWrite(setup, process, ops, rnd)));
        }
        List<Op> faultOps = new ArrayList<>();
        // During a pause of writes, near caches' stores and plain writes of the quiet keys wait together and run in one cycle.
        int[] quiet = IntStream.range(keys.size() / 2, keys.size()).toArray();
        FaultDriver driver = new FaultDriver(setup, faultProcess, faultOps, random.split(), settings.faultGapMin(),
                settings.faultGapMax(), faults, (ops, rnd) -> race(setup,
                        IntStream.range(0, quiet.length).map(i -> rnd.nextInt(setup.nears.size())).toArray(), quiet, true, ops,
                        rnd));
        Thread faultThread = new Thread(driver, "check-faults");
        threads.forEach(Thread::start);
        faultThread.start();
        pause(length);
        driver.stop();
        faultThread.join();
        running = false;
        for (Thread thread : threads) {
            thread.join();
        }
        // A write that timed out may still be applied (after a freeze): let it land in this segment, not the next.
        pause(Setup.COMMAND_TIMEOUT.multipliedBy(3).toNanos() / 2);
        List<Op> history = new ArrayList<>(initial);
        history.addAll(faultOps);
        logs.forEach(history::addAll);
        return history;
    }

    /** One step of a worker: an operation, recorded in its own list. */
    private interface Step {
        void run(List<Op> ops, SplittableRandom random);
    }

    private Thread worker(String name, List<List<Op>> logs, SplittableRandom random, Step step) {
        List<Op> ops = new ArrayList<>();
        logs.add(ops);
        Thread thread = new Thread(() -> {
            while (running) {
                step.run(ops, random);
            }
        }, "check-" + name);
        thread.setDaemon(true);
        return thread;
    }

    private void read(NearCacheTemplate near, int process, List<Op> ops, SplittableRandom random) {
        // Half on every key alike (the quiet ones keep their copies long), half as often as they are written.
        int key = random.nextBoolean() ? random.nextInt(keys.size()) : hotKey(random);
        long start = System.nanoTime();
        try {
            byte[] value = near.get(keys.get(key));
            ops.add(Op.read(process, key, Op.valueOf(value), start, System.nanoTime(), true));
        }
        catch (RuntimeException ex) {
            ops.add(Op.read(process, key, Op.UNKNOWN, start, System.nanoTime(), false));
        }
        pause(settings.readPause().toNanos());
    }

    /**
     * A near cache's write: a store (some with a short TTL), a delete or an increment; one in ten
     * is a store raced by a plain write of the same key sent at the same instant.
     */
    private void nearWrite(Setup setup, NearCacheTemplate near, int process, List<Op> ops, SplittableRandom random) {
        double dice = random.nextDouble();
        if (dice < 0.1) {
            race(setup, new int[] { process }, new int[] { hotKey(random) }, false, ops, random);
        }
        else {
            nearOp(setup, near, process, hotKey(random), (dice - 0.1) / 0.9, ops, random);
        }
        pause(writePause(random));
    }

    /**
     * Near caches' stores of keys, each raced by plain writes of the key (a store, a delete, an
     * increment or an expire) on another connection, all sent before any is awaited: what the
     * server reports of them may come in one message.
     * @param setup the server and near caches
     * @param instances which near cache stores each key
     * @param keys the keys
     * @param paused whether the server holds writes now: then the store is sent first and the
     *        plain write a moment later, so that the server runs them in that order when it lets
     *        them go; otherwise one plain write is sent right before the store and one right after
     * @param ops where the writes are recorded
     * @param random the seeded source
     */
    void race(Setup setup, int[] instances, int[] keys, boolean paused, List<Op> ops, SplittableRandom random) {
        List<Timed> sent = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            int instance = instances[i];
            if (!paused) {
                sent.add(plainOp(setup, 0.35 + 0.65 * random.nextDouble(), keys[i], settings.instances() + instance, random));
            }
            long value = nextValue(instance);
            long start = System.nanoTime();
            CompletableFuture<?> store;
            try {
                store = setup.nears.get(instance).setAsync(this.keys.get(keys[i]), Long.toString(value).getBytes(StandardCharsets.US_ASCII),
                        Duration.ZERO);
            }
            catch (RuntimeException ex) {
                store = CompletableFuture.failedFuture(ex);
            }
            sent.add(new Timed(instance, Op.Kind.SET, keys[i], value, 0, start, answered(store)));
            if (paused) {
                // A paused client runs its commands in the order the server read them, clients in the order they were held.
                pause(TimeUnit.MILLISECONDS.toNanos(2));
            }
            // Held writes: a store or an increment, which tell what they ran on (SET ... GET, INCR), so that the check
            // knows their order against the near cache's store however their times overlap.
            double dice = paused ? (random.nextBoolean() ? 0.35 : 0.55) + 0.05 * random.nextDouble() : 0.35 + 0.65 * random.nextDouble();
            sent.add(plainOp(setup, dice, keys[i], settings.instances() + instance, random));
        }
        sent.forEach(timed -> timed.record(ops));
    }

    private void nearOp(Setup setup, NearCacheTemplate near, int process, int key, double dice, List<Op> ops, SplittableRandom random) {
        String name = keys.get(key);
        long start = System.nanoTime();
        Op.Kind kind = dice < 0.6 ? Op.Kind.SET : dice < 0.8 ? Op.Kind.DEL : Op.Kind.INCR;
        // memcached's TTLs are whole seconds on a clock that ticks once a second: none there.
        long ttl = kind == Op.Kind.SET && dice >= 0.45 && setup.expiries() ? ttlMillis(random) : 0;
        long value = kind == Op.Kind.SET ? nextValue(process) : Op.ABSENT;
        try {
            switch (kind) {
                case SET -> near.set(name, Long.toString(value).getBytes(StandardCharsets.US_ASCII), Duration.ofMillis(ttl));
                case DEL -> near.delete(name);
                default -> value = near.incr(name, 1);
            }
            ops.add(Op.write(process, kind, key, value, TimeUnit.MILLISECONDS.toNanos(ttl), start, System.nanoTime(), true));
        }
        catch (RuntimeException ex) {
            ops.add(Op.write(process, kind, key, kind == Op.Kind.INCR ? Op.UNKNOWN : value, TimeUnit.MILLISECONDS.toNanos(ttl), start,
                    System.nanoTime(), false));
        }
    }

    /** A plain writer's step: a store (some with a TTL), delete, increment, expire and, rarely, a flush of the database. */
    private void plainWrite(Setup setup, int process, List<Op> ops, SplittableRandom random) {
        double dice = random.nextDouble();
        if (dice < 0.0001 && setup.expiries()) {
            long start = System.nanoTime();
            boolean ok = false;
            try {
                setup.flushAll();
                ok = true;
            }
            catch (RuntimeException ex) {
                // Recorded as a flush that may have happened.
            }
            ops.add(Op.write(process, Op.Kind.FLUSH, Op.ALL_KEYS, Op.ABSENT, 0, start, System.nanoTime(), ok));
            try {
                setup.refill();
            }
            catch (RuntimeException ex) {
                // The server is down or frozen (a fault): the next flush refills.
            }
        }
        else {
            plainOp(setup, dice, hotKey(random), process, random).record(ops);
        }
        pause(writePause(random));
    }

    /** Sends a plain write; {@link Timed#record} waits for its answer. */
    private Timed plainOp(Setup setup, double dice, int key, int process, SplittableRandom random) {
        String name = keys.get(key);
        // No time to live on memcached: stores, deletes and increments only.
        double pick = setup.expiries() ? dice : dice * 0.75;
        Op.Kind kind = pick < 0.4 ? Op.Kind.SET : pick < 0.55 ? Op.Kind.DEL : pick < 0.75 ? Op.Kind.INCR : Op.Kind.EXPIRE;
        long ttl = kind == Op.Kind.EXPIRE || (kind == Op.Kind.SET && setup.expiries() && pick >= 0.3) ? ttlMillis(random) : 0;
        long value = kind == Op.Kind.SET ? nextValue(process) : kind == Op.Kind.INCR ? Op.UNKNOWN : Op.ABSENT;
        long start = System.nanoTime();
        CompletableFuture<?> sent;
        try {
            sent = switch (kind) {
                case SET -> setup.set(name, value, ttl);
                case DEL -> setup.delete(name);
                case INCR -> setup.incr(name);
                default -> setup.expire(name, ttl);
            };
        }
        catch (RuntimeException ex) {
            sent = CompletableFuture.failedFuture(ex);
        }
        return new Timed(process, kind, key, value, ttl, start, answered(sent));
    }

    /** The answer (or failure) of a write and when it arrived. */
    private static CompletableFuture<Object[]> answered(CompletableFuture<?> sent) {
        return sent.handle((result, failure) -> new Object[] { failure != null ? failure : result == null ? Boolean.TRUE : result,
                System.nanoTime() });
    }

    /** A plain write on its way: recorded with the time its answer arrived. */
    private record Timed(int process, Op.Kind kind, int key, long value, long ttlMillis, long start, CompletableFuture<Object[]> answer) {

        void record(List<Op> ops) {
            Object outcome;
            long end;
            try {
                Object[] answered = answer.get(Setup.COMMAND_TIMEOUT.toMillis() * 3, TimeUnit.MILLISECONDS);
                outcome = answered[0];
                end = (Long) answered[1];
            }
            catch (Exception ex) {
                outcome = ex;
                end = System.nanoTime();
            }
            long ttl = TimeUnit.MILLISECONDS.toNanos(ttlMillis);
            if (outcome instanceof Throwable) {
                ops.add(Op.write(process, kind, key, kind == Op.Kind.EXPIRE ? 1 : value, ttl, start, end, false));
            }
            else if (kind == Op.Kind.INCR) {
                ops.add(Op.write(process, kind, key, (Long) outcome, ttl, start, end, true));
            }
            else if (kind == Op.Kind.EXPIRE) {
                ops.add(Op.write(process, kind, key, Boolean.TRUE.equals(outcome) ? 1 : 0, ttl, start, end, true));
            }
            else {
                Op write = Op.write(process, kind, key, value, ttl, start, end, true);
                ops.add(outcome instanceof String replaced ? write.after(Op.valueOf(replaced.getBytes(StandardCharsets.US_ASCII))) : write);
            }
        }
    }

    /** A key for a write: key i about 0.35^i as often as key 0, so that some are written hundreds of times a second, some about once. */
    private int hotKey(SplittableRandom random) {
        double total = (1 - Math.pow(KEY_RATIO, keys.size())) / (1 - KEY_RATIO);
        double pick = random.nextDouble() * total;
        double weight = 1;
        for (int k = 0; k < keys.size(); k++) {
            if (pick < weight) {
                return k;
            }
            pick -= weight;
            weight *= KEY_RATIO;
        }
        return keys.size() - 1;
    }

    private static long ttlMillis(SplittableRandom random) {
        return 20 + random.nextInt(181);
    }

    /** A value no other write of the run stores: the writer's number, then a sequence (room for increments below). */
    private long nextValue(int process) {
        return (process + 1) * VALUE_SPACE + sequence.incrementAndGet() * 1000;
    }

    private long writePause(SplittableRandom random) {
        return (long) (random.nextDouble() * 2 * settings.writePause().toNanos());
    }

    private static void pause(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

}
