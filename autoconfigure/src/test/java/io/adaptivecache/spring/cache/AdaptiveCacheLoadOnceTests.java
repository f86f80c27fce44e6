package io.adaptivecache.spring.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.cache.Cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spring's {@code get(key, Callable)} (what {@code @Cacheable(sync = true)} calls) and its
 * asynchronous form {@code retrieve(key, Supplier)} call the loader once per key while the other
 * callers of that key wait for its result, on real servers. The race is driven by a barrier: every
 * caller is released at once for a key that is missing, and the loader holds until all of them
 * are on their way in. The servers' own counters say how often the cache was read and written.
 */
class AdaptiveCacheLoadOnceTests {

    private static final int CALLERS = 100;
    private static final Duration LOAD_TIME = Duration.ofMillis(200);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final String prefix = UUID.randomUUID().toString().substring(0, 8) + ":";
    private final CacheFailureHandler failures = new CacheFailureHandler(false, Duration.ofSeconds(30));
    private final ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
    private ManagedCacheTemplate template;

    @AfterEach
    void close() {
        this.callers.shutdownNow();
        if (this.template != null) {
            this.template.close();
        }
    }

    private AdaptiveCache cache(String backend) {
        this.template = "redis".equals(backend) ? RedisCacheTemplates.builder().uri(redis.uri()).start()
                : MemcachedCacheTemplates.builder().servers(memcached.addresses()).start();
        AdaptiveCache cache = new AdaptiveCache("load-once", this.template, Duration.ofMinutes(5), this.prefix,
                new JdkCacheValueSerializer(getClass().getClassLoader()), true, this.failures);
        // The cache's generation is read once and kept for a second: read it now, so that the callers below read only the key.
        cache.get("warm-up");
        return cache;
    }

    /** Reads and writes the server has answered so far: its own counters. */
    private long[] serverCalls(String backend) {
        if ("redis".equals(backend)) {
            return new long[] { redisCalls("get"), redisCalls("set") };
        }
        return new long[] { Long.parseLong(memcached.server().stat("cmd_get")), Long.parseLong(memcached.server().stat("cmd_set")) };
    }

    private static long redisCalls(String command) {
        String stats;
        try {
            stats = redis.server().info("commandstats", "cmdstat_" + command);
        }
        catch (IllegalStateException ex) {
            // Not listed before the first call of the command.
            return 0;
        }
        // calls=N,usec=...
        return Long.parseLong(stats.substring("calls=".length(), stats.indexOf(',')));
    }

    /** Runs {@code call} on {@link #CALLERS} threads released together, and returns what each got (or threw). */
    private <T> List<Object> race(SlowLoader loads, Callable<T> call) throws Exception {
        CyclicBarrier start = new CyclicBarrier(CALLERS);
        List<Future<Object>> outcomes = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            outcomes.add(this.callers.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                loads.entered.countDown();
                try {
                    return (Object) call.call();
                }
                catch (RuntimeException ex) {
                    return ex;
                }
            }));
        }
        List<Object> results = new ArrayList<>();
        for (Future<Object> outcome : outcomes) {
            results.add(outcome.get(30, TimeUnit.SECONDS));
        }
        return results;
    }

    /** A loader for one race: it counts its calls and takes {@link #LOAD_TIME} once every caller is on its way in. */
    private static final class SlowLoader {

        /** How many times the loader ran. */
        final AtomicInteger calls = new AtomicInteger();

        /** Counted down by each caller of the race as it goes in ({@link #race}). */
        final CountDownLatch entered = new CountDownLatch(CALLERS);

        String load() throws InterruptedException {
            this.calls.incrementAndGet();
            this.entered.await(10, TimeUnit.SECONDS);
            Thread.sleep(LOAD_TIME.toMillis());
            return "loaded";
        }
    }

    @FunctionalInterface
    private interface Callable<T> {
        T call() throws Exception;
    }

    @ParameterizedTest
    @ValueSource(strings = { "redis", "memcached" })
    void callersOfAMissingKeyShouldShareOneLoad(String backend) throws Exception {
        AdaptiveCache cache = cache(backend);
        SlowLoader loads = new SlowLoader();
        long[] before = serverCalls(backend);

        List<Object> results = race(loads, () -> cache.get("k", () -> loads.load()));

        long[] after = serverCalls(backend);
        assertThat(loads.calls.get()).as("loader calls").isEqualTo(1);
        assertThat(results).as("what each caller got").hasSize(CALLERS).containsOnly("loaded");
        assertThat(after[1] - before[1]).as("writes the server took").isEqualTo(1);
        // One read of the key by the caller that loaded (a second at most, if the generation was read again meanwhile):
        // the others waited for its answer instead of asking the server.
        assertThat(after[0] - before[0]).as("reads the server answered").isBetween(1L, 3L);
        assertThat(cache.get("k")).as("the loaded value is cached").isNotNull().extracting(Cache.ValueWrapper::get)
                .isEqualTo("loaded");
    }

    @ParameterizedTest
    @ValueSource(strings = { "redis", "memcached" })
    void aThrowingLoaderShouldReleaseEveryWaiterWithItsFailureAndTheNextCallShouldLoadAgain(String backend) throws Exception {
        AdaptiveCache cache = cache(backend);
        SlowLoader loads = new SlowLoader();
        IllegalStateException boom = new IllegalStateException("the database is down");

        List<Object> results = race(loads, () -> cache.get("k", () -> {
            loads.load();
            throw boom;
        }));

        assertThat(loads.calls.get()).as("loader calls").isEqualTo(1);
        assertThat(results).hasSize(CALLERS).allSatisfy(result -> assertThat(result)
                .isInstanceOf(Cache.ValueRetrievalException.class)
                .extracting(failure -> ((Throwable) failure).getCause()).isSameAs(boom));
        assertThat(cache.get("k")).as("a failed load caches nothing").isNull();

        assertThat(cache.get("k", () -> "second try")).as("the next call loads again").isEqualTo("second try");
        assertThat(cache.get("k")).extracting(Cache.ValueWrapper::get).isEqualTo("second try");
    }

    @ParameterizedTest
    @ValueSource(strings = { "redis", "memcached" })
    void asyncCallersOfAMissingKeyShouldShareOneLoadAndOneFailure(String backend) throws Exception {
        AdaptiveCache cache = cache(backend);
        SlowLoader loads = new SlowLoader();
        ExecutorService loaderThreads = Executors.newCachedThreadPool();
        try {
            Supplier<CompletableFuture<String>> loader = () -> CompletableFuture.supplyAsync(() -> {
                try {
                    return loads.load();
                }
                catch (InterruptedException ex) {
                    throw new CompletionException(ex);
                }
            }, loaderThreads);
            long[] before = serverCalls(backend);

            List<Object> results = race(loads, () -> cache.retrieve("k", loader).get(30, TimeUnit.SECONDS));

            long[] after = serverCalls(backend);
            assertThat(loads.calls.get()).as("loader calls").isEqualTo(1);
            assertThat(results).hasSize(CALLERS).containsOnly("loaded");
            assertThat(after[1] - before[1]).as("writes the server took").isEqualTo(1);
            assertThat(after[0] - before[0]).as("reads the server answered").isBetween(1L, 3L);

            SlowLoader failedLoads = new SlowLoader();
            IllegalStateException boom = new IllegalStateException("the database is down");
            List<Object> failed = race(failedLoads, () -> {
                try {
                    return cache.retrieve("other", () -> CompletableFuture.supplyAsync(() -> {
                        try {
                            failedLoads.load();
                        }
                        catch (InterruptedException ex) {
                            throw new CompletionException(ex);
                        }
                        throw boom;
                    }, loaderThreads)).get(30, TimeUnit.SECONDS);
                }
                catch (java.util.concurrent.ExecutionException ex) {
                    return ex.getCause();
                }
            });
            assertThat(failedLoads.calls.get()).as("loader calls of the failing load").isEqualTo(1);
            assertThat(failed).hasSize(CALLERS).allSatisfy(result -> assertThat(result).isSameAs(boom));
            assertThat(cache.retrieve("other", () -> CompletableFuture.completedFuture("second try")).get(5, TimeUnit.SECONDS))
                    .as("the next call loads again").isEqualTo("second try");
        }
        finally {
            loaderThreads.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "redis", "memcached" })
    void aBackendFailureShouldStillCostOnlyAMiss(String backend) {
        AdaptiveCache cache = cache(backend);
        this.template.close();

        assertThat(cache.get("k", () -> "loaded")).isEqualTo("loaded");
        assertThat(cache.get("k", () -> "loaded again")).as("nothing could be cached").isEqualTo("loaded again");
        assertThat(cache.retrieve("k", () -> CompletableFuture.completedFuture("async")).join()).isEqualTo("async");
        assertThat(this.failures.failureCount()).isPositive();
        assertThatThrownBy(() -> cache.get("k", () -> {
            throw new IllegalStateException("loader");
        })).isInstanceOf(Cache.ValueRetrievalException.class).hasRootCauseMessage("loader");
    }

    @ParameterizedTest
    @ValueSource(strings = { "redis", "memcached" })
    void aLoaderAskingForItsOwnKeyShouldFailRatherThanWaitForItself(String backend) {
        AdaptiveCache cache = cache(backend);

        assertThatThrownBy(() -> org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> cache.get("k", () -> cache.get("k", () -> "inner"))))
                .isInstanceOf(Cache.ValueRetrievalException.class).cause().isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("would wait for itself");
        assertThat(cache.get("k", () -> "after")).as("the failed load left nothing behind").isEqualTo("after");
    }

    /** For a DEGRADE template, a failure is a miss before it reaches the cache at all. */
    @ParameterizedTest
    @ValueSource(strings = { "redis", "memcached" })
    void aDegradingTemplateShouldLoadOnceToo(String backend) throws Exception {
        this.template = "redis".equals(backend) ? RedisCacheTemplates.builder().uri(redis.uri()).onFailure(CacheFailureMode.DEGRADE).start()
                : MemcachedCacheTemplates.builder().servers(memcached.addresses()).onFailure(CacheFailureMode.DEGRADE).start();
        AdaptiveCache cache = new AdaptiveCache("degrading", this.template, Duration.ofMinutes(5), this.prefix,
                new JdkCacheValueSerializer(getClass().getClassLoader()), true, this.failures);
        cache.get("warm-up");
        SlowLoader loads = new SlowLoader();

        List<Object> results = race(loads, () -> cache.get("k", () -> loads.load()));

        assertThat(loads.calls.get()).isEqualTo(1);
        assertThat(results).containsOnly("loaded");
    }
}
