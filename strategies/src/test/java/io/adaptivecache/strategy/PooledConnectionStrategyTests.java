package io.adaptivecache.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.CacheTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PooledConnectionStrategyTests {

    private final FakeConnections connections = new FakeConnections();

    @Test
    void shouldOpenMinIdleConnectionsUpFrontAndAtLeastOne() {
        try (ConnectionStrategy<FakeConnections.Connection> none = ConnectionStrategy
                .open(StrategySpec.pooled(new PoolSettings(4, 4, 0, Duration.ofMillis(50))), connections)) {
            assertThat(none.stats().openConnections()).isEqualTo(1);
        }
        try (ConnectionStrategy<FakeConnections.Connection> three = ConnectionStrategy
                .open(StrategySpec.pooled(new PoolSettings(4, 4, 3, Duration.ofMillis(50))), connections)) {
            assertThat(three.stats().openConnections()).isEqualTo(3);
        }
        assertThat(connections.openCount()).isZero();
    }

    @Test
    void shouldGiveEachCallerItsOwnConnectionUpToMaxTotalThenTimeOutWithAClearMessage() {
        try (ConnectionStrategy<FakeConnections.Connection> pool = ConnectionStrategy
                .open(StrategySpec.pooled(new PoolSettings(2, 2, 0, Duration.ofMillis(30))), connections)) {
            ConnectionLease<FakeConnections.Connection> first = pool.tryAcquire();
            ConnectionLease<FakeConnections.Connection> second = pool.tryAcquire();

            assertThat(first.connection()).isNotSameAs(second.connection());
            assertThatThrownBy(pool::tryAcquire).isInstanceOf(CacheTimeoutException.class)
                    .hasMessageContaining("within 30 ms").hasMessageContaining("max-total 2");
            assertThat(pool.stats().inFlight()).isEqualTo(2);
            assertThat(pool.stats().borrowWaitNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(30).toNanos());

            first.release();
            ConnectionLease<FakeConnections.Connection> third = pool.tryAcquire();
            assertThat(third.connection()).isSameAs(first.connection());
            second.release();
            third.release();
            assertThat(pool.stats().inFlight()).isZero();
            assertThat(pool.stats().borrows()).isEqualTo(4);
        }
    }

    @Test
    void shouldDrainOnlyWhenEveryBorrowedConnectionIsBack() {
        ConnectionStrategy<FakeConnections.Connection> pool = ConnectionStrategy
                .open(StrategySpec.pooled(PoolSettings.ofSize(3)), connections);
        List<ConnectionLease<FakeConnections.Connection>> leases = new ArrayList<>();
        leases.add(pool.tryAcquire());
        leases.add(pool.tryAcquire());

        var drained = pool.retire();

        assertThat(pool.tryAcquire()).isNull();
        assertThat(drained).isNotDone();
        leases.get(0).release();
        assertThat(drained).isNotDone();
        leases.get(1).release();
        assertThat(drained).isDone();
        pool.close();
        assertThat(connections.openCount()).isZero();
    }

    @Test
    void aPoolCustomizerShouldSeeTheBoundsAndHaveTheLastWord() {
        List<Integer> seenMaxTotal = new ArrayList<>();
        PoolConfigCustomizer customizer = config -> {
            seenMaxTotal.add(config.getMaxTotal());
            config.setMaxTotal(1);
        };
        try (ConnectionStrategy<FakeConnections.Connection> pool = ConnectionStrategy
                .open(StrategySpec.pooled(new PoolSettings(4, 4, 0, Duration.ofMillis(20))), connections, customizer)) {
            pool.tryAcquire();

            assertThat(seenMaxTotal).containsExactly(4);
            assertThatThrownBy(pool::tryAcquire).isInstanceOf(CacheTimeoutException.class);
        }
    }
}
