package io.adaptivecache.benchmarks.load;

import java.util.Locale;

/**
 * One cell of the benchmark matrix, apart from the target: the server, the path to it, the
 * value size, the number of closed-loop callers and what they ask for.
 *
 * @param backend the server
 * @param network the path to it
 * @param valueBytes the size of every value written and read
 * @param threads the number of callers
 * @param mix the share of gets and the key popularity
 */
public record Workload(Backend backend, Network network, int valueBytes, int threads, Mix mix) {

    /**
     * A workload of the strategy benchmarks' mix ({@link Mix#MIXED_UNIFORM}).
     * @param backend the server
     * @param network the path to it
     * @param valueBytes the size of every value
     * @param threads the number of callers
     */
    public Workload(Backend backend, Network network, int valueBytes, int threads) {
        this(backend, network, valueBytes, threads, Mix.MIXED_UNIFORM);
    }

    /**
     * The part of a workload that a chart or table shows as one group: everything but the thread count.
     * @param backend the server
     * @param network the path to it
     * @param valueBytes the value size
     * @param mix what the callers ask for
     */
    public record Group(Backend backend, Network network, int valueBytes, Mix mix) {

        /**
         * A group of the strategy benchmarks' mix.
         * @param backend the server
         * @param network the path to it
         * @param valueBytes the value size
         */
        public Group(Backend backend, Network network, int valueBytes) {
            this(backend, network, valueBytes, Mix.MIXED_UNIFORM);
        }

        /** @return for example {@code Redis · loopback · 10 KiB}, with the mix when it is not the default one */
        public String title() {
            return this.backend.label() + " · " + this.network.label() + " · " + sizeLabel(this.valueBytes)
                    + (this.mix == Mix.MIXED_UNIFORM ? "" : " · " + this.mix.label());
        }

        /** @return a file-name stem, for example {@code redis-loopback-10KiB} */
        public String slug() {
            return (this.backend.name() + "-" + this.network.name()).toLowerCase(Locale.ROOT) + "-"
                    + sizeLabel(this.valueBytes).replace(" ", "") + (this.mix == Mix.MIXED_UNIFORM ? "" : "-" + this.mix.slug());
        }
    }

    /** @return the group this workload belongs to */
    public Group group() {
        return new Group(this.backend, this.network, this.valueBytes, this.mix);
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
