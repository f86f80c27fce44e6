package io.adaptivecache.template;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.adaptivecache.CasValue;
import io.adaptivecache.contract.Strategies;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.memcached.MemcachedDriver;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisDriver;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the futures of the {@code ...Async} forms complete: never on a driver's I/O thread (a
 * Lettuce event loop, spymemcached's "Memcached IO" thread, an XMemcached reactor), where a
 * caller's dependent stage would hold up every other call on the connection, and a synchronous
 * call made from it would wait for a reply that only that thread could read. Every form, on both
 * backends, every driver and every strategy. The server is frozen while the calls are made, so
 * that each dependent stage is registered before its future completes (a stage registered after
 * completion runs on the registering thread, which would prove nothing).
 */
class AsyncCompletionThreadIntegrationTests {

    /** Thread names of the drivers' I/O threads: Lettuce's event loops, spymemcached's I/O thread, XMemcached's reactors. */
    private static final Pattern IO_THREAD = Pattern.compile(
            "(?i).*(nioEventLoop|epollEventLoop|io_uring|iouring|kqueueEventLoop|Memcached IO|Xmemcached|Reactor).*");

    /**
     * Calls in flight at once while the server is frozen on shared connections. A pool gets one at a
     * time: a second would open a connection, whose handshake a frozen server cannot answer.
     */
    private static final int BATCH = 3;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final String prefix = UUID.randomUUID().toString().substring(0, 8) + ":";

    enum Driver {
        LETTUCE, JEDIS, SPYMEMCACHED, XMEMCACHED
    }

    static Stream<Arguments> driversAndStrategies() {
        return Stream.of(Driver.values()).flatMap(driver -> Strategies.all()
                // Jedis serves POOLED only; its other strategies are Lettuce's, already covered.
                .filter(strategy -> driver != Driver.JEDIS || strategy.type() == StrategyType.POOLED)
                .map(strategy -> Arguments.of(driver, strategy)));
    }

    private static ManagedCacheTemplate start(Driver driver, StrategySpec strategy) {
        return switch (driver) {
            case LETTUCE -> RedisCacheTemplates.builder().name("lettuce").uri(redis.uri()).strategy(strategy).start();
            case JEDIS -> RedisCacheTemplates.builder().name("jedis").uri(redis.uri()).pooledDriver(RedisDriver.JEDIS)
                    .strategy(strategy).start();
            case SPYMEMCACHED -> MemcachedCacheTemplates.builder().name("spymemcached").servers(memcached.addresses())
                    .strategy(strategy).operationTimeout(Duration.ofSeconds(5)).start();
            case XMEMCACHED -> MemcachedCacheTemplates.builder().name("xmemcached").driver(MemcachedDriver.XMEMCACHED)
                    .servers(memcached.addresses()).strategy(strategy).operationTimeout(Duration.ofSeconds(5)).start();
        };
    }

    private static ServerProcess server(Driver driver) {
        return driver == Driver.LETTUCE || driver == Driver.JEDIS ? redis.server() : memcached.server();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("driversAndStrategies")
    void dependentStagesOfEveryAsyncFormShouldRunOffTheDriversIoThreads(Driver driver, StrategySpec strategy) {
        try (ManagedCacheTemplate template = start(driver, strategy)) {
            String key = this.prefix + "k";
            String counter = this.prefix + "n";
            template.set(key, new byte[] { 1 }, Duration.ZERO);
            template.set(counter, "5".getBytes(), Duration.ZERO);
            CasValue<byte[]> read = template.gets(key);
            Map<String, Supplier<CompletableFuture<?>>> calls = new LinkedHashMap<>();
            calls.put("getAsync", () -> template.getAsync(key));
            calls.put("getAllAsync", () -> template.getAllAsync(List.of(key, counter)));
            calls.put("setAsync", () -> template.setAsync(key, new byte[] { 2 }, Duration.ofMinutes(1)));
            calls.put("addAsync", () -> template.addAsync(this.prefix + "added", new byte[] { 3 }, Duration.ofMinutes(1)));
            calls.put("replaceAsync", () -> template.replaceAsync(key, new byte[] { 4 }, Duration.ofMinutes(1)));
            calls.put("getsAsync", () -> template.getsAsync(key));
            calls.put("casAsync", () -> template.casAsync(key, read.token(), new byte[] { 5 }, Duration.ofMinutes(1)));
            calls.put("incrAsync", () -> template.incrAsync(counter, 2));
            calls.put("decrAsync", () -> template.decrAsync(counter, 1));
            calls.put("touchAsync", () -> template.touchAsync(key, Duration.ofMinutes(2)));
            calls.put("deleteAsync", () -> template.deleteAsync(this.prefix + "added"));

            Map<String, String> threads = new LinkedHashMap<>();
            List<String> names = new ArrayList<>(calls.keySet());
            int batch = strategy.type() == StrategyType.POOLED ? 1 : BATCH;
            for (int from = 0; from < names.size(); from += batch) {
                threads.putAll(runFrozen(driver, calls, names.subList(from, Math.min(from + batch, names.size()))));
            }

            assertThat(threads).as("the thread that ran each form's dependent stage").hasSize(calls.size())
                    .allSatisfy((form, thread) -> assertThat(thread).as(form).doesNotMatch(IO_THREAD));
        }
    }

    /** Makes the calls while the server is frozen, each with a dependent stage registered at once; the stages' threads. */
    private Map<String, String> runFrozen(Driver driver, Map<String, Supplier<CompletableFuture<?>>> calls, List<String> names) {
        // XMemcached answers on the caller's thread before the call returns: a frozen server would only block this thread.
        boolean freeze = driver != Driver.XMEMCACHED;
        Map<String, CompletableFuture<String>> stages = new LinkedHashMap<>();
        if (freeze) {
            server(driver).freeze();
        }
        try {
            for (String name : names) {
                CompletableFuture<?> call = calls.get(name).get();
                if (freeze) {
                    assertThat(call).as(name + " is still waiting for the frozen server").isNotDone();
                }
                stages.put(name, call.handle((result, failure) -> Thread.currentThread().getName()));
            }
        }
        finally {
            if (freeze) {
                server(driver).thaw();
            }
        }
        Map<String, String> threads = new LinkedHashMap<>();
        stages.forEach((name, stage) -> threads.put(name, stage.orTimeout(10, TimeUnit.SECONDS).join()));
        return threads;
    }

    @Test
    void theTemplatesOwnThreadsShouldBeNamedAfterItAndEndWhenItCloses() {
        ManagedCacheTemplate template = RedisCacheTemplates.builder().name("orders").uri(redis.uri())
                .strategy(StrategySpec.pooled(new PoolSettings(2, 2, 1, Duration.ofMillis(500)))).start();
        String thread;
        try {
            redis.server().freeze();
            CompletableFuture<String> stage;
            try {
                stage = template.getAsync(this.prefix + "absent").thenApply(value -> Thread.currentThread().getName());
            }
            finally {
                redis.server().thaw();
            }
            thread = stage.orTimeout(10, TimeUnit.SECONDS).join();
            assertThat(thread).startsWith("adaptive-cache-orders-async-");
            assertThat(Thread.getAllStackTraces().keySet()).filteredOn(live -> live.getName().equals(thread)).singleElement()
                    .satisfies(live -> assertThat(live.isDaemon()).as("a daemon thread").isTrue());
            byte[] synchronous = template.get(this.prefix + "absent");
            assertThat(synchronous).isNull();
        }
        finally {
            template.close();
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> liveThreadsNamed(thread) == 0);
    }

    @Test
    void aTemplateGivenAnExecutorShouldCompleteItsFuturesThereAndLeaveItRunning() {
        ExecutorService mine = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "the-callers-executor"));
        try {
            ManagedCacheTemplate template = MemcachedCacheTemplates.builder().name("given").servers(memcached.addresses())
                    .completionExecutor(mine).start();
            try {
                memcached.server().freeze();
                CompletableFuture<String> stage;
                try {
                    stage = template.setAsync(this.prefix + "k", new byte[] { 1 }, Duration.ZERO)
                            .thenApply(done -> Thread.currentThread().getName());
                }
                finally {
                    memcached.server().thaw();
                }
                assertThat(stage.orTimeout(10, TimeUnit.SECONDS).join()).isEqualTo("the-callers-executor");
            }
            finally {
                template.close();
            }
            assertThat(mine.isShutdown()).as("the caller's executor is the caller's to shut down").isFalse();
        }
        finally {
            mine.shutdownNow();
        }
    }

    private static long liveThreadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(thread -> thread.getName().equals(name) && thread.isAlive()).count();
    }
}
