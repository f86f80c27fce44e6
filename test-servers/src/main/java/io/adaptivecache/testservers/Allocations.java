package io.adaptivecache.testservers;

import java.lang.management.ManagementFactory;

/**
 * What a piece of code allocates, read from the JVM's per-thread allocation counter, for tests
 * that keep a hot path free of garbage. The counter sees every byte the calling thread allocates,
 * so the code measured must run on it.
 */
public final class Allocations {

    private Allocations() {
    }

    /**
     * Bytes the calling thread allocates per run of {@code call}, once the JIT has compiled it:
     * {@code calls} runs warm it up, {@code calls} more are measured. An allocation the JIT
     * removes after inlining (a short-lived summary object, say) therefore does not count, as in
     * a service that has been running for a while.
     * @param calls runs to warm up with, and then to measure
     * @param call the code measured
     * @return the mean bytes per run
     */
    public static double bytesPerCall(int calls, Runnable call) {
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        return (double) (threads.getCurrentThreadAllocatedBytes() - before) / calls;
    }
}
