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

    public static Stream<StrategySpec> all() {
        return Stream.of(StrategySpec.single(), StrategySpec.multi(3, SelectorType.ROUND_ROBIN),
                StrategySpec.multi(2, SelectorType.THREAD_AFFINITY), StrategySpec.multi(4, SelectorType.LEAST_IN_FLIGHT),
                StrategySpec.pooled(new PoolSettings(4, 4, 1, Duration.ofMillis(500))));
    }
}
