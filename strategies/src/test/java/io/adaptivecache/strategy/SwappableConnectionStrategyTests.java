package io.adaptivecache.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.Command;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class SwappableConnectionStrategyTests {

    private final FakeConnections connections = new FakeConnections();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final SwappableConnectionStrategy<FakeConnections.Connection> strategy = new SwappableConnectionStrategy<>(
            connections, failure -> new CacheException("translated: " + failure.getMessage(), failure), Duration.ofSeconds(5));

    @AfterEach
    void shutDown() {
        strategy.close();
        executor.shutdownNow();
    }

    @Test
    void aSwitchAboveTheConnectionLimitShouldBeRefusedBeforeAnythingIsOpened() {
        try (SwappableConnectionStrategy<FakeConnections.Connection> limited = new SwappableConnectionStrategy<>(connections,
                StrategyFactory.of(connections), failure -> new CacheException("x"), Duration.ofSeconds(5), PoolConfigCustomizer.NONE,
                io.adaptivecache.call.CallObserver.NONE, live -> {
                }, 4)) {
            limited.start(StrategySpec.multi(6, SelectorType.ROUND_ROBIN));
            int opened = connections.opened.size();

            assertThatThrownBy(() -> limited.switchTo(StrategySpec.multi(5, SelectorType.ROUND_ROBIN)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("above the limit of 4");
            assertThatThrownBy(() -> limited.switchTo(StrategySpec.pooled(PoolSettings.ofSize(5))))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(connections.opened).as("nothing opened for a refused switch").hasSize(opened);
            assertThat(limited.activeSpec()).as("the first strategy is not checked, and stays").isEqualTo(
                    StrategySpec.multi(6, SelectorType.ROUND_ROBIN));

            limited.switchTo(StrategySpec.multi(4, SelectorType.ROUND_ROBIN));
            assertThat(limited.activeSpec().connections()).as("at the limit is allowed").isEqualTo(4);
        }
    }

    @Test
    void shouldOpenEveryConnectionOfTheFirstStrategyOnStart() {
        strategy.start(StrategySpec.multi(3, SelectorType.ROUND_ROBIN));

        assertThat(connections.opened).hasSize(3);
        assertThat(strategy.openConnections()).isEqualTo(3);
        assertThat(strategy.activeSpec()).isEqualTo(StrategySpec.multi(3, SelectorType.ROUND_ROBIN));
    }

    @Test
    void shouldCloseTheRetiredStrategyOnlyAfterItsLastCallCompletes() throws Exception {
        strategy.start(StrategySpec.single());
        FakeConnections.Connection first = connections.opened.get(0);
        CompletableFuture<String> pending = new CompletableFuture<>();
        CompletableFuture<String> call = run(strategy, connection -> pending);

        Future<SwitchReport> switching = executor.submit(() -> strategy.switchTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)));
        await().atMost(Duration.ofSeconds(5)).until(() -> strategy.activeSpec().type() == StrategyType.MULTI);
        String servedBy = run(strategy, connection -> CompletableFuture.completedFuture(connection.toString())).join();

        assertThat(servedBy).isNotEqualTo(first.toString());
        assertThat(first.closed).isFalse();
        assertThat(switching).isNotDone();

        pending.complete("done");
        SwitchReport report = switching.get(5, TimeUnit.SECONDS);

        assertThat(call.join()).isEqualTo("done");
        assertThat(first.closed).isTrue();
        assertThat(report.drainedCleanly()).isTrue();
        assertThat(report.from()).isEqualTo(StrategySpec.single());
        assertThat(strategy.openConnections()).isEqualTo(2);
    }

    @Test
    void shouldCloseTheRetiredStrategyAtTheDrainTimeoutWhenACallNeverCompletes() {
        try (SwappableConnectionStrategy<FakeConnections.Connection> impatient = new SwappableConnectionStrategy<>(connections,
                failure -> new CacheException("x"), Duration.ofMillis(50))) {
            impatient.start(StrategySpec.single());
            run(impatient, connection -> new CompletableFuture<>());

            SwitchReport report = impatient.switchTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));

            assertThat(report.drainedCleanly()).isFalse();
            assertThat(connections.opened.get(0).closed).isTrue();
        }
    }

    @Test
    void shouldKeepServingOnTheOldStrategyWhenTheNewOneCannotOpen() {
        strategy.start(StrategySpec.single());
        connections.failOpens.set(true);

        assertThatThrownBy(() -> strategy.switchTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)))
                .isInstanceOf(CacheConnectionException.class);

        connections.failOpens.set(false);
        assertThat(strategy.activeSpec()).isEqualTo(StrategySpec.single());
        assertThat(run(strategy, connection -> CompletableFuture.completedFuture(connection.id)).join()).isEqualTo(1);
    }

    @Test
    void shouldCloseConnectionsOpenedBeforeAFailureWhileWarmingUp() {
        strategy.start(StrategySpec.single());
        AtomicInteger opens = new AtomicInteger();
        FakeConnections flaky = new FakeConnections() {
            @Override
            public Connection open() {
                if (opens.incrementAndGet() == 3) {
                    throw new CacheConnectionException("third open fails", null);
                }
                return super.open();
            }
        };

        assertThatThrownBy(() -> ConnectionStrategy.open(StrategySpec.multi(4, SelectorType.ROUND_ROBIN), flaky))
                .isInstanceOf(CacheConnectionException.class);
        assertThat(flaky.opened).hasSize(2).allSatisfy(connection -> assertThat(connection.closed).isTrue());
    }

    @Test
    void shouldNotTouchConnectionsWhenSwitchingToTheLiveStrategy() {
        strategy.start(StrategySpec.single());

        SwitchReport report = strategy.switchTo(StrategySpec.single());

        assertThat(report.changed()).isFalse();
        assertThat(connections.opened).hasSize(1);
    }

    @Test
    void shouldFailCallsWithAConnectionExceptionBeforeStartAndAfterClose() {
        assertThatThrownBy(() -> run(strategy, connection -> CompletableFuture.completedFuture(1)).join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(CacheConnectionException.class)
                .hasMessageContaining("not been started");

        strategy.start(StrategySpec.single());
        strategy.close();

        assertThatThrownBy(() -> run(strategy, connection -> CompletableFuture.completedFuture(1)).join())
                .hasCauseInstanceOf(CacheConnectionException.class).hasMessageContaining("closed");
        assertThat(connections.openCount()).isZero();
    }

    @Test
    void shouldTranslateAndReleaseWhenTheCommandThrows() {
        strategy.start(StrategySpec.single());

        CompletableFuture<Object> call = run(strategy, connection -> {
            throw new IllegalStateException("boom");
        });

        assertThatThrownBy(call::join).hasCauseInstanceOf(CacheException.class).hasMessageContaining("translated: boom");
        assertThat(strategy.stats().inFlight()).isZero();
    }

    @Test
    void shouldNeverUseAClosedConnectionWhileSwitchingUnderLoad() throws Exception {
        strategy.start(StrategySpec.single());
        int threads = 8;
        // The callers run until the switches are done (bounded in calls and time), so that every switch happens under
        // load: with a fixed number of calls, fast callers could finish before the second switch.
        int maxCallsPerThread = 5_000_000;
        int switchesWanted = 12;
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(executor.submit(() -> {
                for (int i = 0; i < maxCallsPerThread && !stop.get() && failure.get() == null; i++) {
                    try {
                        run(strategy, connection -> {
                            connection.use();
                            return CompletableFuture.completedFuture(connection);
                        }).join();
                    }
                    catch (Throwable ex) {
                        failure.compareAndSet(null, ex);
                    }
                }
            }));
        }
        List<StrategySpec> cycle = List.of(StrategySpec.pooled(PoolSettings.ofSize(4)),
                StrategySpec.multi(3, SelectorType.LEAST_IN_FLIGHT), StrategySpec.single());
        int switches = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (switches < switchesWanted && failure.get() == null && System.nanoTime() < deadline) {
            assertThat(strategy.switchTo(cycle.get(switches++ % cycle.size())).drainedCleanly()).isTrue();
        }
        boolean callersStillRunning = workers.stream().noneMatch(Future::isDone);
        stop.set(true);
        for (Future<?> worker : workers) {
            worker.get(60, TimeUnit.SECONDS);
        }

        assertThat(failure.get()).isNull();
        assertThat(switches).isEqualTo(switchesWanted);
        assertThat(callersStillRunning).as("every caller still running when the last switch was done").isTrue();
        assertThat(connections.openCount()).isEqualTo(strategy.openConnections())
                .isEqualTo(strategy.activeSpec().type() == StrategyType.POOLED ? strategy.stats().openConnections()
                        : strategy.activeSpec().connections());
    }

    /** Runs any operation on a leased connection, as a command whose reply is the operation's result. */
    @SuppressWarnings("unchecked")
    static <T> CompletableFuture<T> run(SwappableConnectionStrategy<FakeConnections.Connection> strategy,
            Function<FakeConnections.Connection, CompletionStage<T>> operation) {
        CacheCommands<FakeConnections.Connection> commands = new CacheCommands<>() {
            @Override
            public <R extends @Nullable Object> CompletionStage<R> execute(FakeConnections.Connection connection, Command<R> command) {
                return (CompletionStage<R>) operation.apply(connection);
            }
        };
        return (CompletableFuture<T>) (CompletableFuture<?>) strategy.execute(new Command.Get("k"), commands, true);
    }
}
