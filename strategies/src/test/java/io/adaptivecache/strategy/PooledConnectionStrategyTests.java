package io.adaptivecache.strategy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.adaptivecache.CacheTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

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
    void shouldCloseIdleConnectionsBeyondMaxIdleOffTheReturningThread() {
        try (ConnectionStrategy<FakeConnections.Connection> pool = ConnectionStrategy
                .open(StrategySpec.pooled(new PoolSettings(4, 1, 0, Duration.ofMillis(50))), connections)) {
            List<ConnectionLease<FakeConnections.Connection>> leases = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                leases.add(pool.tryAcquire());
            }
            assertThat(connections.openCount()).isEqualTo(4);
            leases.forEach(ConnectionLease::release);
            // The three beyond max-idle are closed, none by the thread that returned them (an I/O thread, for an
            // asynchronous driver).
            await().atMost(Duration.ofSeconds(10)).until(() -> connections.openCount() == 1);
            assertThat(connections.closingThreads).hasSize(3).doesNotContain(Thread.currentThread());
            assertThat(pool.stats().openConnections()).isEqualTo(1);
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
    @Test
    void aReturnedConnectionShouldGoToTheCallerWaitingForItRatherThanBackToTheCallerReturningIt() throws Exception {
        // A caller in a closed loop returns its connection and asks again at once, as 200 callers on a pool of 20
        // do in a surge. Unfair (commons-pool2's default), it takes the connection back before the waiter that
        // the return woke can run, again and again, until the waiter's max-wait runs out and its call fails.
        // Unfair, the waiter still wins some rounds (when it wakes first), so there are twenty of them; fair, it wins
        // every one: the return hands the connection to the queue's head, and the returning caller queues behind it.
        try (ConnectionStrategy<FakeConnections.Connection> pool = ConnectionStrategy
                .open(StrategySpec.pooled(new PoolSettings(1, 1, 0, Duration.ofSeconds(5))), connections)) {
            for (int round = 0; round < 20; round++) {
                ConnectionLease<FakeConnections.Connection> held = pool.tryAcquire();
                AtomicBoolean waiterServed = new AtomicBoolean();
                Thread waiter = new Thread(() -> {
                    ConnectionLease<FakeConnections.Connection> lease = pool.tryAcquire();
                    waiterServed.set(true);
                    lease.release();
                }, "waiter-" + round);
                waiter.start();
                // Parked in the pool's wait for a free connection: the only timed wait on its way.
                await("the waiter to wait in the pool").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                        .until(() -> waiter.getState() == Thread.State.TIMED_WAITING);

                held.release();
                ConnectionLease<FakeConnections.Connection> again = pool.tryAcquire();
                boolean waiterServedFirst = waiterServed.get();
                again.release();
                waiter.join(TimeUnit.SECONDS.toMillis(10));

                assertThat(waiterServedFirst).as("round %d: the waiter got the connection before the caller that returned it", round)
                        .isTrue();
            }
        }
    }

    @Test
    void callersShouldTakeTheirTurnsInOrderWithoutMakingThePoolsOwnLockFair() {
        // A fair pool lock is taken by every borrow and return: with as many callers as connections it queued each of
        // them (the Jedis pool of 8 at 8 callers served 0.57x of JedisPool's 8, at 1.8x its CPU per call).
        try (ConnectionStrategy<FakeConnections.Connection> pool = ConnectionStrategy
                .open(StrategySpec.pooled(PoolSettings.ofSize(4)), connections)) {
            PooledConnectionStrategy<?> pooled = (PooledConnectionStrategy<?>) pool;
            assertThat(pooled.turnsInOrder()).isTrue();
            assertThat(pooled.poolLockFair()).isFalse();
        }
        try (ConnectionStrategy<FakeConnections.Connection> pool = ConnectionStrategy
                .open(StrategySpec.pooled(PoolSettings.ofSize(4)), connections, config -> config.setFairness(false))) {
            assertThat(((PooledConnectionStrategy<?>) pool).turnsInOrder()).as("a customizer turned the order off").isFalse();
        }
    }

    @Test
    void everyTurnShouldComeBackWithItsConnectionOrItsFailedBorrow() throws Exception {
        // Two callers in closed loops on a pool of one: a turn kept by a release would leave the other caller waiting
        // out max-wait; a turn kept by a failed borrow would shrink the pool for good.
        try (ConnectionStrategy<FakeConnections.Connection> pool = ConnectionStrategy
                .open(StrategySpec.pooled(new PoolSettings(2, 2, 0, Duration.ofSeconds(2))), connections)) {
            connections.failOpens.set(true);
            pool.tryAcquire().release();
            ConnectionLease<FakeConnections.Connection> held = pool.tryAcquire();
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(pool::tryAcquire).as("the second connection cannot open").isNotInstanceOf(CacheTimeoutException.class);
            }
            held.release();
            connections.failOpens.set(false);

            CyclicBarrier start = new CyclicBarrier(2);
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            Runnable loop = () -> {
                try {
                    start.await(5, TimeUnit.SECONDS);
                    for (int i = 0; i < 20_000; i++) {
                        pool.tryAcquire().release();
                    }
                }
                catch (Throwable ex) {
                    failures.add(ex);
                }
            };
            Thread first = new Thread(loop, "caller-1");
            Thread second = new Thread(loop, "caller-2");
            first.start();
            second.start();
            first.join(TimeUnit.SECONDS.toMillis(60));
            second.join(TimeUnit.SECONDS.toMillis(60));

            assertThat(failures).isEmpty();
            ConnectionLease<FakeConnections.Connection> one = pool.tryAcquire();
            ConnectionLease<FakeConnections.Connection> two = pool.tryAcquire();
            assertThat(pool.stats().inFlight()).as("both turns still there after the failed borrows").isEqualTo(2);
            one.release();
            two.release();
        }
    }
}
