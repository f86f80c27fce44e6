package io.adaptivecache.strategy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheException;
import io.adaptivecache.call.CacheCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A backend with two kinds of connection: SHARED strategies get the thread-safe kind, POOLED the
 * kind for one caller at a time; a backend without a shareable kind refuses SHARED strategies.
 */
class ExclusiveConnectionTypeTests {

    /** Marks the connections it opens for exclusive use by their id's sign. */
    static final class TwoKinds extends FakeConnections {

        private final boolean shareable;
        private int exclusiveIds;

        TwoKinds(boolean shareable) {
            this.shareable = shareable;
        }

        @Override
        public synchronized Connection openExclusive() {
            Connection connection = new Connection(-(++this.exclusiveIds));
            this.opened.add(connection);
            return connection;
        }

        @Override
        public boolean supportsSharing() {
            return this.shareable;
        }
    }

    private SwappableConnectionStrategy<FakeConnections.Connection> strategy;

    private SwappableConnectionStrategy<FakeConnections.Connection> strategy(FakeConnections connections) {
        this.strategy = new SwappableConnectionStrategy<>(connections, failure -> new CacheException("translated", failure),
                Duration.ofSeconds(5));
        return this.strategy;
    }

    @AfterEach
    void close() {
        if (this.strategy != null) {
            this.strategy.close();
        }
    }

    private static int servingId(SwappableConnectionStrategy<FakeConnections.Connection> strategy) {
        return strategy.execute(CacheCommand.GET, connection -> CompletableFuture.completedFuture(connection.id)).join();
    }

    @Test
    void pooledShouldUseTheExclusiveKindAndSharedTheShareableKindAcrossSwitches() {
        TwoKinds connections = new TwoKinds(true);
        SwappableConnectionStrategy<FakeConnections.Connection> strategy = strategy(connections);
        strategy.start(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        assertThat(servingId(strategy)).isPositive();

        strategy.switchTo(StrategySpec.pooled(new PoolSettings(2, 2, 1, Duration.ofMillis(200))));
        assertThat(servingId(strategy)).isNegative();
        assertThat(strategy.openConnections()).as("the retired shared connections are closed, one pooled is open").isEqualTo(1);

        strategy.switchTo(StrategySpec.single());
        assertThat(servingId(strategy)).isPositive();
        assertThat(strategy.openConnections()).isEqualTo(1);
    }

    @Test
    void aBackendWithoutAShareableKindShouldRefuseSharedStrategiesAndKeepThePoolServing() {
        SwappableConnectionStrategy<FakeConnections.Connection> strategy = strategy(new TwoKinds(false));
        assertThatThrownBy(() -> strategy.start(StrategySpec.single())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be shared by concurrent callers").hasMessageContaining("use a POOLED strategy");

        strategy.start(StrategySpec.pooled(PoolSettings.ofSize(2)));
        assertThatThrownBy(() -> strategy.switchTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(strategy.activeSpec().type()).isEqualTo(StrategyType.POOLED);
        assertThat(servingId(strategy)).isNegative();
    }
}
