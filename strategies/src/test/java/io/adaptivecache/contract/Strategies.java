package io.adaptivecache.contract;

import java.time.Duration;
import java.util.stream.Stream;

import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;

/** Every strategy shape the backend tests run over. */
public final class Strategies {

    private Strategies() {
    }

    /**
     * One of each connection shape (one shared connection, several, a pool), for the tests that wait
     * out a time to live: a TTL is written by the command layer, the same on every connection, and
     * the selectors that the other MULTI shapes of {@link #all()} add only pick among connections.
     * Waiting for each TTL under every selector would add about a minute to the build and could not
     * fail for a reason the three shapes cannot.
     */
    public static Stream<StrategySpec> shapes() {
        return Stream.of(StrategySpec.single(), StrategySpec.multi(3, SelectorType.ROUND_ROBIN),
                StrategySpec.pooled(new PoolSettings(4, 4, 1, Duration.ofMillis(500))));
    }

    public static Stream<StrategySpec> all() {
        return Stream.of(StrategySpec.single(), StrategySpec.multi(3, SelectorType.ROUND_ROBIN),
                StrategySpec.multi(2, SelectorType.THREAD_AFFINITY), StrategySpec.multi(4, SelectorType.LEAST_IN_FLIGHT),
                StrategySpec.pooled(new PoolSettings(4, 4, 1, Duration.ofMillis(500))));
    }
}
