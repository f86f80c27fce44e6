package io.adaptivecache.strategy;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

/**
 * Picks which of N shared connections serves a call. Called on every call, so it must be
 * cheap, lock-free and allocation-free. One instance serves one strategy.
 */
@FunctionalInterface
public interface ConnectionSelector {

    /**
     * Picks a connection.
     * @param size the number of connections, at least 1
     * @param inFlight the number of calls in flight on connection {@code i}
     * @return an index in {@code [0, size)}
     */
    int select(int size, IntUnaryOperator inFlight);

    /**
     * Each call takes the next connection in turn.
     * @return a new selector
     */
    static ConnectionSelector roundRobin() {
        AtomicInteger next = new AtomicInteger();
        return (size, inFlight) -> Math.floorMod(next.getAndIncrement(), size);
    }

    /**
     * A thread always uses the same connection ({@code threadId % N}), so one thread's commands
     * stay in order on one socket and threads spread evenly when they are many.
     * @return a new selector
     */
    @SuppressWarnings("deprecation") // Thread.threadId() needs Java 19; getId() is the same number
    static ConnectionSelector threadAffinity() {
        return (size, inFlight) -> (int) Math.floorMod(Thread.currentThread().getId(), (long) size);
    }

    /**
     * The connection with the fewest calls in flight; ties go to a random one so that a burst
     * does not pile onto the first connection.
     * @return a new selector
     */
    static ConnectionSelector leastInFlight() {
        return (size, inFlight) -> {
            int start = size == 1 ? 0 : ThreadLocalRandom.current().nextInt(size);
            int best = start;
            int bestCount = inFlight.applyAsInt(start);
            for (int step = 1; step < size && bestCount > 0; step++) {
                int candidate = (start + step) % size;
                int count = inFlight.applyAsInt(candidate);
                if (count < bestCount) {
                    best = candidate;
                    bestCount = count;
                }
            }
            return best;
        };
    }
}
