package io.adaptivecache.benchmarks.load;

import java.util.Locale;

/**
 * One cell of the benchmark matrix, apart from the target: the server, the path to it, the
 * value size and the number of closed-loop callers.
 *
 * @param backend the server
 * @param network the path to it
 * @param valueBytes the size of every value written and read
 * @param threads the number of callers
 */
public record Workload(Backend backend, Network network, int valueBytes, int threads) {

    /** The part of a workload that a chart or table shows as one group: everything but the thread count. */
    public record Group(Backend backend, Network network, int valueBytes) {

        /** @return for example {@code Redis · loopback · 10 KiB} */
        public String title() {
            return this.backend.label() + " · " + this.network.label() + " · " + sizeLabel(this.valueBytes);
        }

        /** @return a file-name stem, for example {@code redis-loopback-10KiB} */
        public String slug() {
            return (this.backend.name() + "-" + this.network.name()).toLowerCase(Locale.ROOT) + "-"
                    + sizeLabel(this.valueBytes).replace(" ", "");
        }
    }

    /** @return the group this workload belongs to */
    public Group group() {
        return new Group(this.backend, this.network, this.valueBytes);
    }

    /**
     * A byte count as people write it.
     * @param bytes the count
     * @return for example {@code 100 B}, {@code 10 KiB}
     */
    public static String sizeLabel(int bytes) {
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes / 1024) + " KiB";
        }
        return bytes + " B";
    }
}
