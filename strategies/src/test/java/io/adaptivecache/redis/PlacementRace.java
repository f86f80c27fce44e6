package io.adaptivecache.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.lettuce.core.codec.StringCodec;

import static org.awaitility.Awaitility.await;

/**
 * The race that can put two of a MULTI's connections on one I/O thread: a template on a pool that
 * opens connections for its 16 callers as they come, switched to MULTI while they call and while
 * other connections of the same client are opened and closed (as a probe, a reconnect, another
 * strategy's pool would). Used by {@link RedisEventLoopPlacementIntegrationTests} and, for each
 * transport in a JVM of its own, by {@link EventLoopPlacementProbe}. Every load loop is bounded in
 * calls and in time.
 */
final class PlacementRace {

    static final int CALLERS = 16;

    /**
     * A pool that opens a connection whenever its callers want one more, up to 16, and keeps them
     * all. (A pool that closes surplus connections would close them on the I/O threads, where a
     * callback returns them; on io_uring that close waits for the very thread that waits on it.)
     */
    static final PoolSettings GROWING_POOL = new PoolSettings(16, 16, 0, Duration.ofSeconds(5));

    private PlacementRace() {
    }

    static ManagedCacheTemplate start(String uri, RedisTransport transport, StrategySpec strategy, int ioThreads) {
        return RedisCacheTemplates.builder().uri(uri).transport(transport).strategy(strategy).commandTimeout(Duration.ofSeconds(5))
                .drainTimeout(Duration.ofSeconds(10)).clientResources(resources -> resources.ioThreadPoolSize(ioThreads)).start();
    }

    /**
     * One round: a fresh template (so fresh I/O threads) on the growing pool, switched to
     * MULTI({@code connections}) while 16 callers call and other connections open and close.
     * @return the I/O thread of each of the MULTI's connections
     */
    static List<String> switchFromPool(String uri, RedisTransport transport, int ioThreads, int connections,
            ExecutorService executor) throws Exception {
        try (ManagedCacheTemplate template = start(uri, transport, StrategySpec.pooled(GROWING_POOL), ioThreads)) {
            Loops callers = callers(template, executor);
            Loops opener = opener(RedisCacheTemplates.connectionLeases(template), executor);
            // The switch starts while the callers borrow and other connections are being opened.
            await().atMost(Duration.ofSeconds(30)).until(() -> callers.done() >= 300 && opener.done() >= 3);
            template.switchStrategy(StrategySpec.multi(connections, SelectorType.ROUND_ROBIN));
            opener.stop();
            callers.stop();
            return threadsOf(EventLoops.ofSharedConnections(template, connections).values().stream().toList());
        }
    }

    static List<String> threadsOf(Collection<io.netty.channel.EventLoop> loops) {
        return loops.stream().map(EventLoops::name).toList();
    }

    /** The most connections on one I/O thread. */
    static long crowding(List<String> threads) {
        Map<String, Long> perThread = threads.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        return perThread.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** Whether more connections share a thread than N over the threads, rounded up, requires. */
    static boolean crowded(List<String> threads, int ioThreads) {
        return crowding(threads) > (threads.size() + ioThreads - 1) / ioThreads;
    }

    /** Opens and closes connections of a template's client, one at a time, bounded in count and time, until stopped. */
    static Loops opener(RedisConnectionLeases leases, ExecutorService executor) {
        return new Loops(executor, 1, 100_000, task -> leases.openDedicated(StringCodec.UTF8).close());
    }

    /** {@value #CALLERS} callers reading one key each in a loop, bounded in calls and time, until stopped. */
    static Loops callers(ManagedCacheTemplate template, ExecutorService executor) {
        return new Loops(executor, CALLERS, 200_000, task -> template.get("placement:" + task));
    }

    /** One step of a loop: the task's number tells the loops on several tasks apart. */
    @FunctionalInterface
    interface Step {

        /** Takes one step; a throw ends the task and fails its {@link Loops#stop()}. */
        void run(int task) throws Exception;
    }

    /** Tasks that each repeat a step, bounded in steps and in time (60 s), counting the steps done, until stopped. */
    static final class Loops {

        private static final Duration MAX_TIME = Duration.ofSeconds(60);

        private final AtomicBoolean stopped = new AtomicBoolean();
        private final AtomicLong done = new AtomicLong();
        private final List<Future<?>> running = new ArrayList<>();

        Loops(ExecutorService executor, int tasks, int maxStepsPerTask, Step step) {
            long deadline = System.nanoTime() + MAX_TIME.toNanos();
            for (int i = 0; i < tasks; i++) {
                int task = i;
                running.add(executor.submit(() -> {
                    for (int n = 0; n < maxStepsPerTask && !stopped.get() && System.nanoTime() < deadline; n++) {
                        step.run(task);
                        done.incrementAndGet();
                    }
                    return null;
                }));
            }
        }

        /** The steps done so far, over all tasks. */
        long done() {
            return done.get();
        }

        /** Stops the tasks and waits for them, each after the step it is in; a failed step fails here. */
        void stop() throws Exception {
            stopped.set(true);
            for (Future<?> task : running) {
                task.get(30, TimeUnit.SECONDS);
            }
        }
    }
}
