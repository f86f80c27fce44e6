package io.adaptivecache.benchmarks.targets;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.LoadedClient;

/**
 * Something the benchmark measures: a client set up the way its users would set it up.
 *
 * @param id a short stable id, used in tables, charts and {@code --targets}
 * @param description what it is, in a few words
 * @param backend the server it talks to
 * @param kind ours, ours written by hand, or a peer
 * @param opener opens a fresh client for one cell
 */
public record BenchTarget(String id, String description, Backend backend, Kind kind, Opener opener) {

    /**
     * The same target under another id, for a run in which it appears once per transport.
     * @param suffix appended to the id, such as {@code @io_uring}; empty for none
     * @return the target
     */
    public BenchTarget withSuffix(String suffix) {
        if (suffix == null || suffix.isEmpty()) {
            return this;
        }
        return new BenchTarget(this.id + suffix, this.description + " (" + suffix.substring(1) + ")", this.backend, this.kind,
                this.opener);
    }

    /** Where a target comes from. */
    public enum Kind {

        /** adaptive-cache's {@code CacheTemplate}. */
        ADAPTIVE_CACHE,

        /** The same strategy written directly on lettuce-core or spymemcached, to measure our overhead. */
        HAND_WRITTEN,

        /** What users would pick instead. */
        PEER
    }

    /** Opens a client. */
    @FunctionalInterface
    public interface Opener {

        /**
         * Opens a client connected to a server.
         * @param host the server's host
         * @param port its port
         * @param threads how many callers will use the client (for sizes that follow the caller count)
         * @return the client
         * @throws Exception if it cannot connect
         */
        LoadedClient open(String host, int port, int threads) throws Exception;
    }

    /**
     * Opens a client for one cell.
     * @param host the server's host
     * @param port its port
     * @param threads how many callers will use it
     * @return the client
     * @throws Exception if it cannot connect
     */
    public LoadedClient open(String host, int port, int threads) throws Exception {
        return this.opener.open(host, port, threads);
    }
}
