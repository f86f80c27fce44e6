package io.adaptivecache.contract;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.stream.Stream;

import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every strategy shape the backend tests run over, and the annotations that run a test over them. */
public final class Strategies {

    private Strategies() {
    }

    /** A parameterized test run once for each strategy of {@link #all()}, given as its {@link StrategySpec} parameter. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest
    @MethodSource("io.adaptivecache.contract.Strategies#all")
    public @interface All {
    }

    /** A parameterized test run once for each connection shape of {@link #shapes()}, given as its {@link StrategySpec} parameter. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest
    @MethodSource("io.adaptivecache.contract.Strategies#shapes")
    public @interface Shapes {
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

    /**
     * Every strategy: one shared connection, several under each selector, a pool.
     * @return the strategies
     */
    public static Stream<StrategySpec> all() {
        return Stream.of(StrategySpec.single(), StrategySpec.multi(3, SelectorType.ROUND_ROBIN),
                StrategySpec.multi(2, SelectorType.THREAD_AFFINITY), StrategySpec.multi(4, SelectorType.LEAST_IN_FLIGHT),
                StrategySpec.pooled(new PoolSettings(4, 4, 1, Duration.ofMillis(500))));
    }
}
