package io.adaptivecache.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.memcached.MemcachedProtocol;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;

import static io.adaptivecache.benchmarks.ClosedLoopLoad.ROUNDS;
import static io.adaptivecache.benchmarks.ClosedLoopLoad.THREAD_COUNTS;
import static io.adaptivecache.benchmarks.ClosedLoopLoad.WARM_UP;

/**
 * Binary against text protocol through a memcached {@code CacheTemplate} (MULTI, 2 clients),
 * 80% get / 20% set of 100-byte values over 10,000 keys, closed loop, at 1, 8, 50 and 200
 * threads; three interleaved rounds, 1 s warm-up and 3 s measured per cell, median ratio
 * reported. Starts its own memcached on a free loopback port unless an address is given.
 *
 * <pre>./mvnw -q install -DskipTests &amp;&amp; ./mvnw -q -pl benchmarks exec:java [-Dexec.args=127.0.0.1:11211]</pre>
 */
public final class MemcachedProtocolComparison {

    private static final Duration MEASURED = Duration.ofSeconds(3);

    private MemcachedProtocolComparison() {
    }

    /**
     * Runs the comparison.
     * @param args an optional {@code host:port} of a running memcached
     * @throws Exception if a run fails
     */
    public static void main(String[] args) throws Exception {
        MemcachedServer server = null;
        String address;
        if (args.length > 0) {
            address = args[0];
        }
        else {
            server = new MemcachedServer();
            server.start();
            address = server.address();
        }
        try {
            Map<Integer, List<Double>> ratios = new TreeMap<>();
            for (int round = 0; round < ROUNDS; round++) {
                for (int threads : THREAD_COUNTS) {
                    double binary = opsPerSecond(address, MemcachedProtocol.BINARY, threads);
                    double text = opsPerSecond(address, MemcachedProtocol.TEXT, threads);
                    System.out.printf("round %d, %3d threads: binary %,9.0f ops/s, text %,9.0f ops/s, ratio %.2f%n", round + 1,
                            threads, binary, text, binary / text);
                    ratios.computeIfAbsent(threads, key -> new ArrayList<>()).add(binary / text);
                }
            }
            ClosedLoopLoad.printRatios("threads", "---:", "binary / text", ratios);
        }
        finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    private static double opsPerSecond(String address, MemcachedProtocol protocol, int threads) {
        try (ManagedCacheTemplate template = MemcachedCacheTemplates.builder().servers(address).protocol(protocol)
                .strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)).start()) {
            return ClosedLoopLoad.opsPerSecond(template, Backend.MEMCACHED, threads, WARM_UP, MEASURED);
        }
    }
}
