package io.adaptivecache.benchmarks.targets;

import java.util.concurrent.atomic.AtomicInteger;

/** Picks one of N in turn, as the hand-written multi-connection clients do (and as our ROUND_ROBIN selector does). */
final class RoundRobin {

    private final AtomicInteger next = new AtomicInteger();
    private final int size;

    RoundRobin(int size) {
        this.size = size;
    }

    int next() {
        return Math.floorMod(this.next.getAndIncrement(), this.size);
    }
}
