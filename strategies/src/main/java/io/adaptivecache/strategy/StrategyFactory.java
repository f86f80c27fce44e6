package io.adaptivecache.strategy;

import java.util.Objects;

/**
 * Opens the strategy a spec names on a backend's connections. Most backends serve every strategy
 * from one kind of connection ({@link #of}); a backend whose pooled connections block their
 * caller (Jedis) serves POOLED as a {@link BlockingPoolStrategies blocking pool with its shared
 * async lane}. The swap mechanism and the template know only this interface, never which it is.
 *
 * @param <C> the native connection type
 */
public interface StrategyFactory<C> {

    /**
     * Opens a strategy, warm.
     * @param spec the strategy to open
     * @param connections counts every connection the strategy opens and closes, across the factories it uses
     * @param poolCustomizer adjusts the commons-pool2 configuration of a POOLED strategy
     * @return the open strategy
     * @throws io.adaptivecache.CacheException if its connections cannot be opened
     */
    ConnectionStrategy<C> open(StrategySpec spec, OpenConnections connections, PoolConfigCustomizer poolCustomizer);

    /**
     * Whether a POOLED strategy's connections block their caller, so that the policy keeps such a
     * pool for few callers only.
     * @return {@code false} unless pooled connections block
     */
    default boolean pooledConnectionsBlock() {
        return false;
    }

    /**
     * Whether each connection of a SINGLE or MULTI strategy runs an I/O thread of its own
     * ({@link ConnectionFactory#threadPerConnection()}), so that the policy may try fewer of them
     * when every one is busy.
     * @return {@code false} unless each shared connection has a thread of its own
     */
    default boolean threadPerSharedConnection() {
        return false;
    }

    /**
     * Every strategy on one kind of connection, each of which may be shared by concurrent callers:
     * SINGLE and MULTI share theirs, POOLED lends each to one caller at a time.
     * @param connections the backend's connections
     * @param <C> the native connection type
     * @return the factory
     */
    static <C> StrategyFactory<C> of(ConnectionFactory<C> connections) {
        Objects.requireNonNull(connections, "connections");
        return new StrategyFactory<>() {

            @Override
            public ConnectionStrategy<C> open(StrategySpec spec, OpenConnections open, PoolConfigCustomizer poolCustomizer) {
                return ConnectionStrategy.open(spec, open.counting(connections), poolCustomizer);
            }

            @Override
            public boolean threadPerSharedConnection() {
                return connections.threadPerConnection();
            }
        };
    }
}
