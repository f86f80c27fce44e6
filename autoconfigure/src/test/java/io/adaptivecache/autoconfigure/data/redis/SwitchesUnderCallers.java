package io.adaptivecache.autoconfigure.data.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Callers that keep using Spring Data over the Redis template while its strategy switches under
 * them, from the SINGLE it starts on to MULTI(2), POOLED(4) and back to SINGLE: each switch must
 * take effect (the template reports the new strategy, the server counts its connections, the pool
 * its borrows) while the callers go on, and none of their rounds may fail. Shared by the tests of
 * Spring Data's templates and of its repositories, which differ only in what a round calls.
 */
public final class SwitchesUnderCallers {

    /** Most rounds a caller runs; it also stops 20 seconds after the start, or when the switches are done. */
    private static final int MAX_ROUNDS = 200_000;

    private SwitchesUnderCallers() {
    }

    /** What one caller does in one round; it throws (an {@link AssertionError} for a wrong answer) to fail. */
    @FunctionalInterface
    public interface Round {

        /**
         * Runs one round.
         * @param caller the caller's number, from 0
         * @param round the round's number for that caller, from 0
         */
        void run(int caller, int round);
    }

    /**
     * Runs the callers and switches the template under them, each switch once the callers have
     * completed enough rounds on the strategy before it.
     * @param template the Redis template, started on SINGLE with nothing but these callers using it
     * @param server the server it talks to, which counts its connections
     * @param callers how many callers
     * @param roundsPerStrategy rounds the callers must complete on each new strategy
     * @param round what a caller does in one round
     * @return the rounds completed in all
     * @throws Exception if a caller's thread could not be joined
     */
    public static long run(ManagedCacheTemplate template, RedisServer server, int callers, int roundsPerStrategy, Round round)
            throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong rounds = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        ExecutorService threads = Executors.newFixedThreadPool(callers);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < callers; t++) {
                int caller = t;
                running.add(threads.submit(() -> {
                    // Bounded in count and in time.
                    for (int i = 0; i < MAX_ROUNDS && !stop.get() && System.nanoTime() < deadline; i++) {
                        try {
                            round.run(caller, i);
                            rounds.incrementAndGet();
                        }
                        catch (RuntimeException | AssertionError ex) {
                            failures.add(ex);
                        }
                    }
                }));
            }
            StrategySpec pooled = StrategySpec.pooled(new PoolSettings(4, 4, 0, Duration.ofSeconds(2)));
            for (StrategySpec spec : List.of(StrategySpec.multi(2, SelectorType.ROUND_ROBIN), pooled, StrategySpec.single())) {
                long roundsBefore = rounds.get();
                long borrowsBefore = template.stats().totalBorrows();
                assertThat(template.switchStrategy(spec).changed()).isTrue();
                assertThat(template.stats().activeStrategy()).isEqualTo(spec);
                // The callers went on, on the new strategy.
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> rounds.get() >= roundsBefore + roundsPerStrategy || !failures.isEmpty());
                assertThat(failures).isEmpty();
                if (spec.equals(pooled)) {
                    // Only the callers run: borrows from the pool are theirs.
                    assertThat(template.stats().totalBorrows() - borrowsBefore).isGreaterThan(100);
                }
                else {
                    assertThat(server.connectedClients()).isEqualTo(spec.connections());
                }
            }
            stop.set(true);
            for (Future<?> future : running) {
                future.get(30, TimeUnit.SECONDS);
            }
        }
        finally {
            stop.set(true);
            threads.shutdownNow();
        }
        assertThat(failures).isEmpty();
        return rounds.get();
    }
}
