package io.adaptivecache.strategy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.CacheException;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.Command;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A backend with two kinds of connection: a blocking pool lends the blocking kind to callers that
 * may block and serves the others on its async lane, one shareable connection, kept while one pool
 * follows another and closed, after its calls, with the last pool.
 */
class BlockingPoolStrategiesTests {

    /** Ids above 1000 mark the blocking kind. */
    static final class Blocking extends FakeConnections {

        private int ids = 1000;

        @Override
        public synchronized Connection open() {
            Connection connection = new Connection(++this.ids);
            this.opened.add(connection);
            return connection;
        }
    }

    private final FakeConnections shared = new FakeConnections();
    private final Blocking blocking = new Blocking();
    // What the fake command answers: the id of the connection it ran on, or a future the test completes.
    private volatile @Nullable CompletableFuture<Object> held;
    private SwappableConnectionStrategy<FakeConnections.Connection> strategy;

    @AfterEach
    void close() {
        if (this.strategy != null) {
            this.strategy.close();
        }
    }

    private SwappableConnectionStrategy<FakeConnections.Connection> start(StrategySpec spec) {
        this.strategy = new SwappableConnectionStrategy<>(this.shared, new BlockingPoolStrategies<>(this.shared, this.blocking),
                failure -> new CacheException("translated", failure), Duration.ofSeconds(5), PoolConfigCustomizer.NONE,
                io.adaptivecache.call.CallObserver.NONE, live -> {
                }, StrategySpec.DEFAULT_CONNECTION_LIMIT);
        this.strategy.start(spec);
        return this.strategy;
    }

    private final CacheCommands<FakeConnections.Connection> commands = new CacheCommands<>() {
        @Override
        @SuppressWarnings("unchecked")
        public <T extends @Nullable Object> CompletionStage<T> execute(FakeConnections.Connection connection, Command<T> command) {
            CompletableFuture<Object> waiting = BlockingPoolStrategiesTests.this.held;
            return (CompletionStage<T>) (waiting != null ? waiting : CompletableFuture.completedFuture(connection.id));
        }
    };

    private int servingId(boolean callerMayBlock) {
        return (Integer) (Object) this.strategy.execute(new Command.Get("k"), this.commands, callerMayBlock).join();
    }

    private static StrategySpec pool(int size) {
        return StrategySpec.pooled(new PoolSettings(size, size, 1, Duration.ofMillis(200)));
    }

    @Test
    void aPoolShouldLendBlockingConnectionsToCallersThatMayBlockAndServeTheOthersOnItsLane() {
        start(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        assertThat(servingId(true)).as("MULTI shares the shareable kind").isLessThan(1000);
        assertThat(servingId(false)).isLessThan(1000);

        this.strategy.switchTo(pool(2));
        assertThat(servingId(true)).as("a caller that may block borrows a blocking connection").isGreaterThan(1000);
        assertThat(servingId(false)).as("an async caller takes the lane").isLessThan(1000);
        assertThat(this.strategy.openConnections()).as("one pooled connection and the lane").isEqualTo(2);
        assertThat(this.shared.openCount()).isEqualTo(1);
    }

    @Test
    void theLaneShouldStayWhileOnePoolFollowsAnotherAndCloseWithTheLast() {
        start(pool(2));
        int lane = servingId(false);

        this.strategy.switchTo(pool(3));
        assertThat(servingId(false)).as("the same lane serves the next pool").isEqualTo(lane);
        assertThat(this.shared.opened).as("no second lane was opened").hasSize(1);

        this.strategy.switchTo(StrategySpec.single());
        assertThat(this.shared.opened.get(0).closed).as("the lane closed with the last pool").isTrue();
        assertThat(this.blocking.openCount()).isZero();
        assertThat(this.strategy.openConnections()).as("only SINGLE's connection").isEqualTo(1);
    }

    @Test
    void theLaneShouldCloseOnlyAfterItsCallInFlightCompletes() throws Exception {
        start(pool(2));
        CompletableFuture<Object> reply = new CompletableFuture<>();
        this.held = reply;
        CompletableFuture<?> call = this.strategy.execute(new Command.Get("k"), this.commands, false);
        this.held = null;

        CompletableFuture<SwitchReport> switched = new CompletableFuture<>();
        Thread switching = new Thread(() -> switched.complete(this.strategy.switchTo(StrategySpec.single())), "switching");
        switching.start();
        // The new strategy is published before the old one drains: from then on the switching thread either parks in the
        // drain, waiting for the lane's call, or (were the lane not drained) runs to its end.
        await().atMost(Duration.ofSeconds(5)).until(() -> this.strategy.activeSpec().equals(StrategySpec.single())
                && (switching.getState() == Thread.State.TIMED_WAITING || !switching.isAlive()));
        assertThat(switching.isAlive()).as("the switch waits in its drain for the lane's call").isTrue();
        assertThat(switched).isNotCompleted();
        assertThat(this.shared.opened.get(0).closed).as("the lane is open while its call is in flight").isFalse();

        reply.complete(7);
        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo(7);
        assertThat(switched.get(5, TimeUnit.SECONDS).drainedCleanly()).as("drained, not timed out").isTrue();
        assertThat(this.shared.opened.get(0).closed).as("closed after the call").isTrue();
    }
}
