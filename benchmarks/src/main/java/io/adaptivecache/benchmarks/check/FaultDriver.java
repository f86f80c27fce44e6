package io.adaptivecache.benchmarks.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;

/**
 * Injects faults while a check runs, one at a time, in a seeded order that goes through every
 * fault of the server before repeating one, with a seeded pause between them; counts each kind.
 * A fault that changes what keys hold (a flush, a swap, a restart) is recorded in the history as
 * a write of every key; the others only change how the near caches learn of writes. Every fault
 * is undone before the next (the server thawed, the proxy's delay removed), also when the run
 * stops in the middle of one.
 */
public final class FaultDriver implements Runnable {

    /** The faults. */
    public enum Fault {
        /** One near cache's invalidation connection killed by the server ({@code CLIENT KILL ID}). */
        KILL_TRACKING,
        /** The server stopped (SIGSTOP) for longer than the bound, then continued (SIGCONT). */
        FREEZE,
        /** The server killed (SIGKILL) and started again, empty. */
        RESTART,
        /** {@code FLUSHALL} (memcached: {@code flush_all}). */
        FLUSHALL,
        /** {@code SWAPDB 0 1}, database 1 being empty (it is emptied a while before). */
        SWAPDB,
        /** A near cache's template switched to another connection strategy while it serves. */
        SWITCH,
        /**
         * Every write held for 100 ms ({@code CLIENT PAUSE 100 WRITE}) and then run together, in one
         * event-loop cycle; among them a near cache's store and a plain write of the same key.
         */
        PAUSE_WRITES,
        /** The first instance's data path slowed down (replies take half a second) for a while. */
        SLOW_READS
    }

    private static final Duration FREEZE = Duration.ofMillis(500);
    private static final Duration DOWN = Duration.ofMillis(300);
    private static final Duration PAUSE = Duration.ofMillis(100);
    private static final Duration SLOW = Duration.ofMillis(2500);
    private static final long SLOW_DELAY_MILLIS = 250;

    private final Setup setup;
    private final int process;
    private final List<Op> history;
    private final SplittableRandom random;
    private final Duration minGap;
    private final Duration maxGap;
    private final Map<Fault, AtomicInteger> counts;
    private final BiConsumer<List<Op>, SplittableRandom> race;
    private final List<Fault> order = new ArrayList<>();
    private volatile boolean running = true;

    /**
     * @param setup the server and its near caches
     * @param process the process index the history records faults under
     * @param history where this driver's operations go (its own list)
     * @param random the seeded source of the order, the gaps and the targets
     * @param minGap the least time between two faults
     * @param maxGap the most
     * @param counts the counts to add to
     * @param race sends a near cache's store and a plain write of one key together, recording both
     */
    FaultDriver(Setup setup, int process, List<Op> history, SplittableRandom random, Duration minGap, Duration maxGap,
            Map<Fault, AtomicInteger> counts, BiConsumer<List<Op>, SplittableRandom> race) {
        this.setup = setup;
        this.process = process;
        this.history = history;
        this.random = random;
        this.minGap = minGap;
        this.maxGap = maxGap;
        this.counts = counts;
        this.race = race;
    }

    /** @return zero counts for every fault */
    static Map<Fault, AtomicInteger> zeroCounts() {
        Map<Fault, AtomicInteger> counts = new EnumMap<>(Fault.class);
        for (Fault fault : Fault.values()) {
            counts.put(fault, new AtomicInteger());
        }
        return counts;
    }

    /** Stops after the fault under way, if any, has been undone. */
    void stop() {
        running = false;
    }

    @Override
    public void run() {
        while (running) {
            pause(minGap.toNanos() + random.nextLong(Math.max(1, maxGap.toNanos() - minGap.toNanos())));
            if (!running) {
                return;
            }
            Fault fault = next();
            try {
                inject(fault);
                counts.get(fault).incrementAndGet();
            }
            catch (RuntimeException ex) {
                // A fault that could not be injected (no invalidation connection to kill yet) is not counted.
                System.err.println("fault " + fault + " not injected: " + ex);
            }
        }
    }

    /** The next fault: every fault of the server once, in a shuffled order, then again. */
    private Fault next() {
        if (order.isEmpty()) {
            order.addAll(setup.faults());
            for (int i = order.size() - 1; i > 0; i--) {
                Collections.swap(order, i, random.nextInt(i + 1));
            }
        }
        return order.remove(order.size() - 1);
    }

    private void inject(Fault fault) {
        switch (fault) {
            case KILL_TRACKING -> {
                if (!setup.killTrackingConnection(random.nextInt(setup.nears.size()))) {
                    throw new IllegalStateException("no invalidation connection is connected");
                }
            }
            case FREEZE -> {
                setup.server.freeze();
                try {
                    pause(FREEZE.toNanos());
                }
                finally {
                    setup.server.thaw();
                }
            }
            case RESTART -> allKeys(Op.Kind.RESTART, () -> {
                setup.server.kill();
                pause(DOWN.toNanos());
                setup.server.restart();
            });
            case FLUSHALL -> allKeys(Op.Kind.FLUSH, setup::flushAll);
            case SWAPDB -> setup.swapDatabases(setup.bound().multipliedBy(2), swap -> allKeys(Op.Kind.SWAPDB, swap));
            case SWITCH -> {
                ManagedCacheTemplate template = setup.remotes.get(random.nextInt(setup.remotes.size()));
                List<StrategySpec> strategies = setup.strategies();
                int now = strategies.indexOf(template.stats().activeStrategy());
                template.switchStrategy(strategies.get((now + 1 + random.nextInt(strategies.size() - 1)) % strategies.size()));
            }
            case PAUSE_WRITES -> {
                setup.pauseWrites(PAUSE);
                race.accept(history, random);
            }
            case SLOW_READS -> {
                setup.proxy.delayMillis(SLOW_DELAY_MILLIS);
                try {
                    pause(SLOW.toNanos());
                }
                finally {
                    setup.proxy.delayMillis(0);
                }
            }
        }
    }

    /** Runs a fault that empties every key, recorded as a write of absence to every key over the time it took. */
    private void allKeys(Op.Kind kind, Runnable action) {
        long start = System.nanoTime();
        boolean ok = false;
        try {
            action.run();
            ok = true;
        }
        finally {
            history.add(Op.write(process, kind, Op.ALL_KEYS, Op.ABSENT, 0, start, System.nanoTime(), ok));
        }
        try {
            setup.refill();
        }
        catch (RuntimeException ex) {
            // The fault happened all the same; the next flush refills.
        }
    }

    private static void pause(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
