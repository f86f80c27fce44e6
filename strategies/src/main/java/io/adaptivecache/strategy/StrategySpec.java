package io.adaptivecache.strategy;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What strategy to build: immutable, cheap to compare, and printable for logs and the
 * Actuator endpoint.
 */
public final class StrategySpec {

    /**
     * The most connections (N of MULTI, max-total of POOLED) a strategy switched to at runtime may
     * have unless configured otherwise: an operator's request can never open more.
     */
    public static final int DEFAULT_CONNECTION_LIMIT = 64;

    private final StrategyType type;
    private final int connections;
    // Exactly one of these is set: the selector for SINGLE and MULTI, the pool for POOLED.
    private final @Nullable SelectorType selector;
    private final @Nullable PoolSettings pool;

    private StrategySpec(StrategyType type, int connections, @Nullable SelectorType selector, @Nullable PoolSettings pool) {
        this.type = type;
        this.connections = connections;
        this.selector = selector;
        this.pool = pool;
    }

    /**
     * One shared connection.
     * @return the spec
     */
    public static StrategySpec single() {
        return new StrategySpec(StrategyType.SINGLE, 1, SelectorType.ROUND_ROBIN, null);
    }

    /**
     * One shared connection per available processor, picked round-robin.
     * @return the spec
     */
    public static StrategySpec multi() {
        return multi(defaultMultiConnections(), SelectorType.ROUND_ROBIN);
    }

    /**
     * The N of a MULTI strategy that leaves it unset: one connection per available processor,
     * so that every core's callers have a connection of their own to write to. The one
     * definition of that default, for the core and for the configuration that fills it in.
     * @return the number of available processors, at least 1
     */
    public static int defaultMultiConnections() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * N shared connections.
     * @param connections N, at least 1 (1 behaves as {@link #single()} but keeps the MULTI name)
     * @param selector how a call picks its connection
     * @return the spec
     */
    public static StrategySpec multi(int connections, SelectorType selector) {
        if (connections < 1) {
            throw new IllegalArgumentException("A MULTI strategy needs at least 1 connection, was " + connections);
        }
        return new StrategySpec(StrategyType.MULTI, connections, Objects.requireNonNull(selector, "selector"), null);
    }

    /**
     * A pool of connections, each used by one caller at a time.
     * @param pool the pool's bounds
     * @return the spec
     */
    public static StrategySpec pooled(PoolSettings pool) {
        return new StrategySpec(StrategyType.POOLED, pool.maxTotal(), null, Objects.requireNonNull(pool, "pool"));
    }

    /**
     * The kind of strategy.
     * @return the type
     */
    public StrategyType type() {
        return type;
    }

    /**
     * The most connections the strategy opens: N for SHARED, max-total for POOLED.
     * @return the bound
     */
    public int connections() {
        return connections;
    }

    /**
     * The selector of a SHARED strategy.
     * @return the selector type
     * @throws IllegalStateException for POOLED
     */
    public SelectorType selector() {
        if (selector == null) {
            throw new IllegalStateException("A POOLED strategy has no selector");
        }
        return selector;
    }

    /**
     * The bounds of a POOLED strategy.
     * @return the pool settings
     * @throws IllegalStateException for SHARED strategies
     */
    public PoolSettings pool() {
        if (pool == null) {
            throw new IllegalStateException("A " + type + " strategy has no pool");
        }
        return pool;
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof StrategySpec spec && spec.type == type && spec.connections == connections
                && spec.selector == selector && Objects.equals(spec.pool, pool);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, connections, selector, pool);
    }

    @Override
    public String toString() {
        return switch (type) {
            case SINGLE -> "SINGLE";
            case MULTI -> "MULTI(" + connections + ", " + selector + ")";
            case POOLED -> "POOLED(max-total=" + pool.maxTotal() + ", max-idle=" + pool.maxIdle() + ", min-idle="
                    + pool.minIdle() + ", max-wait=" + pool.maxWait().toMillis() + "ms)";
        };
    }
}
