package io.adaptivecache.strategy;

import java.util.function.Supplier;

/** The built-in {@link ConnectionSelector}s, by name, for configuration. */
public enum SelectorType {

    /** {@link ConnectionSelector#roundRobin()}. */
    ROUND_ROBIN(ConnectionSelector::roundRobin),

    /** {@link ConnectionSelector#threadAffinity()}. */
    THREAD_AFFINITY(ConnectionSelector::threadAffinity),

    /** {@link ConnectionSelector#leastInFlight()}. */
    LEAST_IN_FLIGHT(ConnectionSelector::leastInFlight);

    private final Supplier<ConnectionSelector> factory;

    SelectorType(Supplier<ConnectionSelector> factory) {
        this.factory = factory;
    }

    /**
     * A new selector of this type, for one strategy.
     * @return the selector
     */
    public ConnectionSelector newSelector() {
        return factory.get();
    }
}
