package io.adaptivecache.redis;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;

import static org.awaitility.Awaitility.await;

/**
 * Run in a JVM of its own per transport by {@link RedisPoolClosingOnIoThreadsIntegrationTests}
 * (Lettuce chooses one transport per JVM): a Lettuce pool that keeps one idle connection of up to
 * eight, under {@link PlacementRace#CALLERS} callers whose leases come back on the I/O threads, so
 * that returns close surplus connections and open replacements for waiting borrowers. Prints the
 * transport used and the calls made once the callers have stopped and the template has closed.
 */
public final class ShrinkingPoolProbe {

    /** Calls enough for many returns to close a connection while borrowers wait. */
    static final int CALLS = 3_000;

    private ShrinkingPoolProbe() {
    }

    /**
     * @param args the Redis URI and the transport
     * @throws Exception when a call fails or the callers do not finish
     */
    public static void main(String[] args) throws Exception {
        RedisTransport transport = RedisTransport.of(args[1]);
        ExecutorService executor = Executors.newFixedThreadPool(PlacementRace.CALLERS);
        long calls;
        try (ManagedCacheTemplate template = RedisCacheTemplates.builder().uri(args[0]).transport(transport)
                .strategy(StrategySpec.pooled(new PoolSettings(8, 1, 0, Duration.ofSeconds(5))))
                .commandTimeout(Duration.ofSeconds(5)).drainTimeout(Duration.ofSeconds(10))
                .clientResources(resources -> resources.ioThreadPoolSize(2)).start()) {
            PlacementRace.Loops callers = PlacementRace.callers(template, executor);
            await().atMost(Duration.ofSeconds(60)).until(() -> callers.done() >= CALLS);
            callers.stop();
            calls = callers.done();
        }
        finally {
            executor.shutdownNow();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
        System.out.println("in-use=" + RedisTransport.inUse().label() + " calls=" + calls + " closed");
        System.exit(0);
    }
}
