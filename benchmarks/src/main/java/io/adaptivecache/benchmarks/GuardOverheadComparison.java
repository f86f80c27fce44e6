package io.adaptivecache.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.resilience.Resilience4jCallGuard;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import static io.adaptivecache.benchmarks.ClosedLoopLoad.ROUNDS;
import static io.adaptivecache.benchmarks.ClosedLoopLoad.THREAD_COUNTS;
import static io.adaptivecache.benchmarks.ClosedLoopLoad.WARM_UP;

/**
 * What the circuit breaker costs on the hot path: the same template (MULTI, 2 connections) with
 * the default Resilience4j breaker against none, on Redis and memcached, 80% get / 20% set of
 * 100-byte values over 10,000 keys, closed loop at 1, 8, 50 and 200 threads; three interleaved
 * rounds, 1 s warm-up and 2 s measured per cell, median ratio reported. Starts its own servers
 * on free loopback ports.
 *
 * <pre>./mvnw -q install -DskipTests &amp;&amp; ./mvnw -q -pl benchmarks exec:java -Dbenchmark=GuardOverheadComparison</pre>
 */
public final class GuardOverheadComparison {

    private static final Duration MEASURED = Duration.ofSeconds(2);

    private GuardOverheadComparison() {
    }

    /**
     * Runs the comparison.
     * @param args none
     * @throws Exception if a run fails
     */
    public static void main(String[] args) throws Exception {
        RedisServer redis = new RedisServer();
        MemcachedServer memcached = new MemcachedServer();
        redis.start();
        memcached.start();
        try {
            Map<String, Function<CallGuard, ManagedCacheTemplate>> backends = Map.of(
                    "redis", guard -> RedisCacheTemplates.builder().uri("redis://" + redis.address())
                            .strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)).guard(guard).start(),
                    "memcached", guard -> MemcachedCacheTemplates.builder().servers(memcached.address())
                            .strategy(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)).guard(guard).start());
            Map<String, List<Double>> ratios = new TreeMap<>();
            for (int round = 0; round < ROUNDS; round++) {
                for (String backend : List.of("redis", "memcached")) {
                    for (int threads : THREAD_COUNTS) {
                        double guarded = opsPerSecond(backend, backends.get(backend).apply(Resilience4jCallGuard.of(
                                CircuitBreaker.of("bench", Resilience4jCallGuard.circuitBreakerDefaults().build()), null, null)),
                                threads);
                        double bare = opsPerSecond(backend, backends.get(backend).apply(CallGuard.NONE), threads);
                        System.out.printf("round %d, %-9s %3d threads: guarded %,9.0f ops/s, unguarded %,9.0f ops/s, ratio %.2f%n",
                                round + 1, backend, threads, guarded, bare, guarded / bare);
                        ratios.computeIfAbsent(String.format("%-9s %3d", backend, threads), key -> new ArrayList<>())
                                .add(guarded / bare);
                    }
                }
            }
            ClosedLoopLoad.printRatios("backend, threads", "---", "guarded / unguarded", ratios);
        }
        finally {
            redis.stop();
            memcached.stop();
        }
    }

    private static double opsPerSecond(String backend, ManagedCacheTemplate started, int threads) {
        try (ManagedCacheTemplate template = started) {
            return ClosedLoopLoad.opsPerSecond(template, Backend.valueOf(backend.toUpperCase(java.util.Locale.ROOT)), threads,
                    WARM_UP, MEASURED);
        }
    }
}
