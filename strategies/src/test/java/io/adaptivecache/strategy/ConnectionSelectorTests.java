package io.adaptivecache.strategy;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionSelectorTests {

    @Test
    void roundRobinShouldVisitEveryConnectionInTurn() {
        ConnectionSelector selector = ConnectionSelector.roundRobin();

        int[] picks = new int[7];
        for (int i = 0; i < picks.length; i++) {
            picks[i] = selector.select(3, index -> 0);
        }

        assertThat(picks).containsExactly(0, 1, 2, 0, 1, 2, 0);
    }

    @Test
    void threadAffinityShouldKeepAThreadOnOneConnectionAndSpreadThreads() {
        ConnectionSelector selector = ConnectionSelector.threadAffinity();
        int mine = selector.select(4, index -> 0);

        Set<Integer> picks = new HashSet<>();
        for (int i = 0; i < 16; i++) {
            picks.add(CompletableFuture.supplyAsync(() -> selector.select(4, index -> 0),
                    runnable -> new Thread(runnable).start()).join());
        }

        assertThat(selector.select(4, index -> 0)).isEqualTo(mine);
        assertThat(picks).hasSizeGreaterThan(1).allMatch(pick -> pick >= 0 && pick < 4);
    }

    @Test
    void leastInFlightShouldPickTheLeastBusyConnection() {
        ConnectionSelector selector = ConnectionSelector.leastInFlight();
        int[] inFlight = {5, 2, 7, 1, 9};

        for (int i = 0; i < 20; i++) {
            assertThat(selector.select(inFlight.length, index -> inFlight[index])).isEqualTo(3);
        }
    }

    @Test
    void leastInFlightShouldSpreadTiesOverConnections() {
        ConnectionSelector selector = ConnectionSelector.leastInFlight();

        Set<Integer> picks = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            picks.add(selector.select(4, index -> 0));
        }

        assertThat(picks).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void multiStrategyShouldRouteByTheSelector() {
        FakeConnections connections = new FakeConnections();
        try (ConnectionStrategy<FakeConnections.Connection> strategy = ConnectionStrategy
                .open(StrategySpec.multi(3, SelectorType.ROUND_ROBIN), connections)) {
            for (int i = 0; i < 9; i++) {
                ConnectionLease<FakeConnections.Connection> lease = strategy.tryAcquire();
                lease.connection().use();
                lease.release();
            }
        }

        assertThat(connections.opened).extracting(connection -> connection.calls.get()).containsExactly(3, 3, 3);
    }
}
