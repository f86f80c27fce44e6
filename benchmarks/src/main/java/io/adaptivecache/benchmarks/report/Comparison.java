package io.adaptivecache.benchmarks.report;

import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;

/**
 * A ratio the report shows on every workload of a backend: the numerator's throughput over the
 * best denominator's, taken within each round (so that both saw the same machine) and reported
 * as the median over rounds.
 *
 * @param section the question it answers
 * @param backend the backend
 * @param numerator the target on top
 * @param denominators the targets below; the best of them in each round counts
 * @param denominatorBackend the backend the denominators ran on (the same one, but for scale-out
 *        comparisons: the same workload on one server)
 * @param goal what the project claims, as text; not asserted
 */
public record Comparison(String section, Backend backend, String numerator, List<String> denominators, Backend denominatorBackend,
        String goal) {

    /**
     * A comparison within one backend.
     * @param section the question it answers
     * @param backend the backend
     * @param numerator the target on top
     * @param denominators the targets below
     * @param goal what the project claims
     */
    public Comparison(String section, Backend backend, String numerator, List<String> denominators, String goal) {
        this(section, backend, numerator, denominators, backend, goal);
    }

    /** @return for example {@code ours-multi / lettuce-multi} */
    public String label() {
        String below = this.denominators.size() == 1 ? this.denominators.get(0) : "best of " + String.join(", ", this.denominators);
        return this.numerator + " / " + below + (this.denominatorBackend == this.backend ? "" : " on " + this.denominatorBackend.label());
    }

    /** The comparisons the issue asks for, in report order. */
    static final List<Comparison> ALL = List.of(
            new Comparison(Sections.OVERHEAD, Backend.REDIS, "ours-single", List.of("lettuce-single"), "≥ 0.95"),
            new Comparison(Sections.OVERHEAD, Backend.REDIS, "ours-multi", List.of("lettuce-multi"), "≥ 0.95"),
            new Comparison(Sections.OVERHEAD, Backend.REDIS, "ours-pooled-8", List.of("lettuce-pool-8"), "≥ 0.95"),
            new Comparison(Sections.OVERHEAD, Backend.REDIS, "ours-pooled-50", List.of("lettuce-pool-50"), "≥ 0.95"),
            new Comparison(Sections.OVERHEAD, Backend.MEMCACHED, "ours-single", List.of("spy-single"), "≥ 0.95"),
            new Comparison(Sections.OVERHEAD, Backend.MEMCACHED, "ours-multi", List.of("spy-array"), "≥ 0.95"),
            new Comparison(Sections.OVERHEAD, Backend.MEMCACHED, "ours-pooled-8", List.of("spy-pool-8"), "≥ 0.95"),
            new Comparison(Sections.SEEDS, Backend.REDIS, "ours-pooled-8", List.of("ours-multi"), "< 1 at 200 threads"),
            new Comparison(Sections.SEEDS, Backend.REDIS, "ours-pooled-50", List.of("ours-multi"), "< 1 at 200 threads"),
            new Comparison(Sections.SEEDS, Backend.REDIS, "ours-single", List.of("ours-multi"), "< 1"),
            new Comparison(Sections.SEEDS, Backend.REDIS, "jedis-pool-50", List.of("jedis-pool-200"), "seeds: pool of 50 ahead"),
            new Comparison(Sections.SEEDS, Backend.MEMCACHED, "ours-pooled-8", List.of("ours-multi"), "< 1 at 200 threads"),
            new Comparison(Sections.SEEDS, Backend.MEMCACHED, "ours-single", List.of("ours-multi"), "< 1"),
            new Comparison(Sections.ALTERNATIVES, Backend.REDIS, "ours-multi", List.of("sdr-shared"), "> 1 at 200 threads"),
            new Comparison(Sections.ALTERNATIVES, Backend.REDIS, "ours-multi", List.of("sdr-pool-8"), "> 1 at 200 threads"),
            new Comparison(Sections.ALTERNATIVES, Backend.REDIS, "ours-multi", List.of("jedis-pool-8", "jedis-pool-50", "jedis-pool-200"),
                    "> 1 at 200 threads"),
            new Comparison(Sections.ALTERNATIVES, Backend.MEMCACHED, "ours-multi", List.of("spy-pool-8"), "> 1"),
            new Comparison(Sections.ALTERNATIVES, Backend.MEMCACHED, "ours-multi", List.of("xmemcached"), "issue #10: ≥ 0.9"),
            new Comparison(Sections.ALTERNATIVES, Backend.REDIS_CLUSTER, "ours-multi", List.of("lettuce-cluster"), "> 1 at 200 threads"),
            new Comparison(Sections.ALTERNATIVES, Backend.REDIS_CLUSTER, "ours-multi", List.of("jedis-cluster"), "> 1"),
            new Comparison(Sections.ADAPTIVE, Backend.REDIS, "ours-adaptive",
                    List.of("ours-single", "ours-multi", "ours-pooled-8", "ours-pooled-50"), "≥ 0.95"),
            new Comparison(Sections.ADAPTIVE, Backend.MEMCACHED, "ours-adaptive", List.of("ours-single", "ours-multi", "ours-pooled-8"),
                    "≥ 0.95"),
            new Comparison(Sections.ADAPTIVE, Backend.REDIS_CLUSTER, "ours-adaptive",
                    List.of("ours-single", "ours-multi", "ours-pooled-8", "ours-pooled-50"), "≥ 0.95"),
            new Comparison(Sections.BLOCKING, Backend.REDIS, "ours-jedis-pooled-8", List.of("jedis-pool-8", "jedis-pool-50"),
                    "issue #10: ≥ 0.95 at 1 and 8 threads"),
            new Comparison(Sections.BLOCKING, Backend.REDIS, "ours-adaptive-jedis", List.of("jedis-pool-8", "jedis-pool-50"),
                    "issue #10: ≥ 0.95 at 1 and 8 threads"),
            new Comparison(Sections.BLOCKING, Backend.REDIS, "ours-adaptive-jedis",
                    List.of("ours-single", "ours-multi", "ours-pooled-8", "ours-jedis-pooled-8"), "issue #10: ≥ 0.95"),
            new Comparison(Sections.MEMCACHED_DRIVER, Backend.MEMCACHED, "ours-x-multi", List.of("xmemcached"), "issue #10: ≥ 0.9"),
            new Comparison(Sections.MEMCACHED_DRIVER, Backend.MEMCACHED, "ours-x-single", List.of("xmemcached"), "issue #10: ≥ 0.9"),
            new Comparison(Sections.MEMCACHED_DRIVER, Backend.MEMCACHED, "ours-x-adaptive", List.of("xmemcached"), "issue #10: ≥ 0.9"),
            new Comparison(Sections.MEMCACHED_DRIVER, Backend.MEMCACHED, "ours-x-multi", List.of("ours-multi"), "recorded"),
            new Comparison(Sections.MEMCACHED_DRIVER, Backend.MEMCACHED, "ours-x-adaptive",
                    List.of("ours-single", "ours-multi", "ours-pooled-8", "ours-x-single", "ours-x-multi", "ours-x-pooled-8"),
                    "issue #10: ≥ 0.95"),
            new Comparison(Sections.COALESCING, Backend.REDIS, "ours-single", List.of("ours-single-uncoalesced"), "recorded"),
            new Comparison(Sections.COALESCING, Backend.REDIS, "ours-multi", List.of("ours-multi-uncoalesced"), "recorded"),
            new Comparison(Sections.TRANSPORT, Backend.REDIS, "ours-multi@io_uring", List.of("ours-multi@nio"), "issue #10: recorded"),
            new Comparison(Sections.TRANSPORT, Backend.REDIS, "ours-single@io_uring", List.of("ours-single@nio"), "issue #10: recorded"),
            new Comparison(Sections.TRANSPORT, Backend.REDIS, "ours-multi@epoll", List.of("ours-multi@nio"), "issue #10: recorded"),
            new Comparison(Sections.TRANSPORT, Backend.REDIS, "ours-multi@io_uring", List.of("lettuce-single@nio"),
                    "issue #10: ≥ 1.3 at 50 and 200 threads"),
            new Comparison(Sections.TRANSPORT, Backend.REDIS, "ours-multi@io_uring", List.of("jedis-pool-8@nio", "jedis-pool-50@nio"),
                    "issue #10: ≥ 1.4 at 50 and 200 threads"),
            new Comparison(Sections.SCALE_OUT, Backend.REDIS_CLUSTER, "ours-single", List.of("ours-single"), Backend.REDIS,
                    "issue #7: recorded"),
            new Comparison(Sections.SCALE_OUT, Backend.REDIS_CLUSTER, "ours-multi", List.of("ours-multi"), Backend.REDIS,
                    "issue #7: recorded"),
            new Comparison(Sections.SCALE_OUT, Backend.REDIS_CLUSTER, "ours-adaptive", List.of("ours-adaptive"), Backend.REDIS,
                    "issue #7: recorded"),
            new Comparison(Sections.SCALE_OUT, Backend.REDIS_CLUSTER, "lettuce-cluster", List.of("lettuce-single"), Backend.REDIS,
                    "for reference"));

    /** The report's ratio sections. */
    static final class Sections {

        static final String OVERHEAD = "Our overhead: CacheTemplate against the same strategy written by hand";
        static final String SEEDS = "The source articles' findings, on this machine";
        static final String ALTERNATIVES = "Against what users would pick instead";
        static final String ADAPTIVE = "Adaptive against the best fixed strategy of each workload";
        static final String BLOCKING = "The blocking POOLED driver (Jedis) against JedisPool, and adaptive with it";
        static final String MEMCACHED_DRIVER = "The XMemcached driver (ours-x-*) against XMemcached, and adaptive with it";
        static final String COALESCING = "Coalesced writes: the shared connections against the same with every command flushed on its own";
        static final String TRANSPORT = "Native transports: each transport in a JVM of its own, ratios within a round";
        static final String SCALE_OUT = "Scale-out: the same workload on three cluster masters against one server";

        private Sections() {
        }
    }
}
