package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasValue;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.contract.Strategies;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source article's workload (Memcached Java Client 2.5.1 vs 2.6.1): 20 threads doing
 * add/set/get/gets/cas/delete against three servers weighted 3,1,1, every result checked
 * against memcached's semantics rather than counted. Bounded in rounds and time.
 */
class MemcachedSourceWorkloadIntegrationTests {

    /** The client library under test; the XMemcached subclasses change it. */
    protected MemcachedDriver driver() {
        return MemcachedDriver.SPYMEMCACHED;
    }

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension(3, 1024 * 1024);

    private static final int THREADS = 20;
    private static final int ROUNDS = 300;

    enum Step { ADD, ADD_AGAIN, SET, GET, GETS, CAS, STALE_CAS, GET_AFTER_CAS, DELETE, GET_AFTER_DELETE }

    @Strategies.All
    void everyOperationShouldBehaveAsMemcachedSpecifies(StrategySpec strategy) throws Exception {
        Map<Step, LongAdder> wrong = new EnumMap<>(Step.class);
        for (Step step : Step.values()) {
            wrong.put(step, new LongAdder());
        }
        List<String> examples = Collections.synchronizedList(new ArrayList<>());
        String run = UUID.randomUUID().toString().substring(0, 8);
        ExecutorService executor = Executors.newFixedThreadPool(THREADS);
        long started = System.nanoTime();
        try (ManagedCacheTemplate template = MemcachedCacheTemplates.builder().driver(driver())
                .servers(memcached.addresses(3, 1, 1)).strategy(strategy).operationTimeout(Duration.ofSeconds(5)).start()) {
            CacheOperations<String> cache = template.withCodec(ValueCodec.utf8());
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                workers.add(executor.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        String key = run + ":" + thread + ":" + round;
                        check(wrong, examples, Step.ADD, cache.add(key, "a", Duration.ofMinutes(5)), true);
                        check(wrong, examples, Step.ADD_AGAIN, cache.add(key, "b", Duration.ofMinutes(5)), false);
                        cache.set(key, "s", Duration.ofMinutes(5));
                        check(wrong, examples, Step.GET, cache.get(key), "s");
                        CasValue<String> read = cache.gets(key);
                        check(wrong, examples, Step.GETS, read == null ? null : read.value(), "s");
                        if (read != null) {
                            check(wrong, examples, Step.CAS, cache.cas(key, read.token(), "c", Duration.ofMinutes(5)), CasResult.STORED);
                            check(wrong, examples, Step.STALE_CAS, cache.cas(key, read.token(), "x", Duration.ofMinutes(5)),
                                    CasResult.EXISTS);
                        }
                        check(wrong, examples, Step.GET_AFTER_CAS, cache.get(key), "c");
                        check(wrong, examples, Step.DELETE, cache.delete(key), true);
                        check(wrong, examples, Step.GET_AFTER_DELETE, cache.get(key), null);
                    }
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(120, TimeUnit.SECONDS);
            }
        }
        finally {
            executor.shutdownNow();
        }
        long operations = (long) THREADS * ROUNDS * 10;
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("memcached source workload on %s: %d operations in %.2f s = %.0f ops/s%n", strategy, operations,
                seconds, operations / seconds);

        assertThat(examples).isEmpty();
        assertThat(wrong.values()).allSatisfy(count -> assertThat(count.sum()).isZero());
    }

    private static void check(Map<Step, LongAdder> wrong, List<String> examples, Step step, Object actual, Object expected) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            wrong.get(step).increment();
            if (examples.size() < 10) {
                examples.add(step + ": expected " + expected + " but was " + actual);
            }
        }
    }

    static java.util.stream.Stream<StrategySpec> strategies() {
        return Strategies.all();
    }
}
