package io.adaptivecache.strategy;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * Decides which native connection serves each call. Implementations are thread-safe and
 * hot-path-aware: {@link #tryAcquire()} takes no lock it can avoid and allocates nothing for
 * SHARED strategies.
 *
 * <p>A strategy is opened warm (its connections are connected before it serves a call), can be
 * {@linkplain #retire() retired} (it stops handing out leases and reports when the last one is
 * released), and is then {@linkplain #close() closed}.
 *
 * @param <C> the native connection type
 */
public interface ConnectionStrategy<C> extends AutoCloseable {

    /**
     * Builds a strategy and opens its connections (all N for SHARED; min-idle, and at least
     * one, for POOLED). If any connection fails to open, those already opened are closed.
     * @param spec what to build
     * @param factory the backend's connections
     * @param <C> the native connection type
     * @return the open strategy
     * @throws io.adaptivecache.CacheConnectionException if a connection cannot be opened
     * @throws IllegalStateException if POOLED is asked for and commons-pool2 is not on the classpath
     */
    static <C> ConnectionStrategy<C> open(StrategySpec spec, ConnectionFactory<C> factory) {
        return open(spec, factory, PoolConfigCustomizer.NONE);
    }

    /**
     * Builds a strategy and opens its connections, letting a customizer adjust the pool of a
     * POOLED strategy.
     * @param spec what to build
     * @param factory the backend's connections
     * @param poolCustomizer adjusts the commons-pool2 configuration (POOLED only)
     * @param <C> the native connection type
     * @return the open strategy
     */
    static <C> ConnectionStrategy<C> open(StrategySpec spec, ConnectionFactory<C> factory, PoolConfigCustomizer poolCustomizer) {
        return switch (spec.type()) {
            case SINGLE, MULTI -> new SharedConnectionStrategy<>(spec, factory);
            case POOLED -> PooledConnectionStrategy.open(spec, factory, poolCustomizer);
        };
    }

    /**
     * What this strategy was built from.
     * @return the spec
     */
    StrategySpec spec();

    /**
     * Leases a connection for one call. POOLED may block up to its max-wait.
     * @return a lease, or {@code null} if this strategy has been retired (the caller must then
     *     ask the strategy that replaced it)
     * @throws io.adaptivecache.CacheTimeoutException if no pooled connection became free in time
     */
    @Nullable ConnectionLease<C> tryAcquire();

    /**
     * Leases a connection for one call whose caller must not block (an {@code ...Async} caller).
     * The same as {@link #tryAcquire()} for a strategy whose connections do not block their
     * caller; a blocking pool serves such a caller on its shared async lane instead.
     * @return a lease, or {@code null} if this strategy has been retired
     */
    default @Nullable ConnectionLease<C> tryAcquireWithoutBlocking() {
        return tryAcquire();
    }

    /**
     * Stops handing out leases. Idempotent.
     * @return completes when every lease already handed out has been released
     */
    CompletableFuture<Void> retire();

    /**
     * Calls holding a lease right now, including callers waiting to borrow.
     * @return the count
     */
    int inFlight();

    /**
     * A cheap snapshot of this strategy's figures, safe to call per metrics scrape.
     * @return the figures
     */
    StrategyStats stats();

    /** Closes every connection this strategy opened. Call after {@link #retire()} has completed. */
    @Override
    void close();
}
