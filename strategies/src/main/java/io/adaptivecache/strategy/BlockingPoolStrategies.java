package io.adaptivecache.strategy;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * The strategies of a backend whose pooled connections block their caller (Jedis): SINGLE and
 * MULTI on its shareable connections, POOLED as a <em>blocking pool with an async lane</em>. A
 * synchronous caller borrows a blocking connection and does the I/O on its own thread (the
 * fastest path for few callers); a caller that must not block (an {@code ...Async} form) is
 * served on the lane, one shareable connection, so it still gets its future at once.
 *
 * <p>The lane is opened with the first blocking pool (before it goes live, so no caller waits for
 * it to connect), kept while one pool follows another, and closed with the last pool, after its
 * calls have finished. The swap mechanism, the template and the connection factories know
 * nothing of it: this class is the whole concept.
 *
 * @param <C> the native connection type, common to both kinds of connection
 */
public final class BlockingPoolStrategies<C> implements StrategyFactory<C> {

    private final ConnectionFactory<C> shared;
    private final ConnectionFactory<C> blocking;
    // The lane and how many open pools use it; guarded by this. Pools are opened and retired under the template's
    // switch lock, so this lock is never contended on a call.
    private @Nullable ConnectionStrategy<C> lane;
    private int pools;

    /**
     * @param shared connections many callers may share: SINGLE, MULTI and the async lane
     * @param blocking connections that serve one caller at a time on the caller's thread: POOLED
     */
    public BlockingPoolStrategies(ConnectionFactory<C> shared, ConnectionFactory<C> blocking) {
        this.shared = Objects.requireNonNull(shared, "shared");
        this.blocking = Objects.requireNonNull(blocking, "blocking");
    }

    @Override
    public ConnectionStrategy<C> open(StrategySpec spec, OpenConnections connections, PoolConfigCustomizer poolCustomizer) {
        if (spec.type() != StrategyType.POOLED) {
            return ConnectionStrategy.open(spec, connections.counting(shared), poolCustomizer);
        }
        ConnectionStrategy<C> lane = joinLane(connections, poolCustomizer);
        try {
            return new BlockingPool(PooledConnectionStrategy.open(spec, connections.counting(blocking), poolCustomizer), lane);
        }
        catch (RuntimeException ex) {
            leaveLane().ifPresent(ConnectionStrategy::close);
            throw ex;
        }
    }

    @Override
    public boolean pooledConnectionsBlock() {
        return true;
    }

    @Override
    public boolean threadPerSharedConnection() {
        return shared.threadPerConnection();
    }

    private synchronized ConnectionStrategy<C> joinLane(OpenConnections connections, PoolConfigCustomizer poolCustomizer) {
        if (lane == null) {
            lane = ConnectionStrategy.open(StrategySpec.single(), connections.counting(shared), poolCustomizer);
        }
        pools++;
        return lane;
    }

    /** One pool less; the lane, once no pool uses it, to be drained and closed by the caller. */
    private synchronized Optional<ConnectionStrategy<C>> leaveLane() {
        pools--;
        if (pools > 0 || lane == null) {
            return Optional.empty();
        }
        ConnectionStrategy<C> last = lane;
        lane = null;
        return Optional.of(last);
    }

    /** A pool of blocking connections, serving callers that must not block on the shared lane. */
    private final class BlockingPool implements ConnectionStrategy<C> {

        private final ConnectionStrategy<C> pool;
        private final ConnectionStrategy<C> lane;
        // The lane, once this was the last pool on it: retired with this pool and closed with it.
        private @Nullable ConnectionStrategy<C> retiringLane;
        private boolean left;
        // Set first thing on retirement: callers that must not block then look for the live strategy again.
        private volatile boolean retired;

        BlockingPool(ConnectionStrategy<C> pool, ConnectionStrategy<C> lane) {
            this.pool = pool;
            this.lane = lane;
        }

        @Override
        public StrategySpec spec() {
            return pool.spec();
        }

        @Override
        public @Nullable ConnectionLease<C> tryAcquire() {
            return pool.tryAcquire();
        }

        @Override
        public @Nullable ConnectionLease<C> tryAcquireWithoutBlocking() {
            // Null once this pool is retired (or the lane with it): the caller then takes the strategy that replaced it.
            return retired ? null : lane.tryAcquire();
        }

        @Override
        public synchronized CompletableFuture<Void> retire() {
            retired = true;
            CompletableFuture<Void> poolDrained = pool.retire();
            if (!left) {
                left = true;
                retiringLane = leaveLane().orElse(null);
            }
            ConnectionStrategy<C> ending = retiringLane;
            return ending == null ? poolDrained : CompletableFuture.allOf(poolDrained, ending.retire());
        }

        @Override
        public int inFlight() {
            return pool.inFlight();
        }

        @Override
        public StrategyStats stats() {
            return pool.stats();
        }

        @Override
        public synchronized void close() {
            try {
                pool.close();
            }
            finally {
                if (!left) {
                    // Closed without retiring (a switch that failed after opening it): leave the lane all the same.
                    left = true;
                    retiringLane = leaveLane().orElse(null);
                }
                if (retiringLane != null) {
                    retiringLane.close();
                }
            }
        }

        @Override
        public String toString() {
            return pool + " with an async lane";
        }
    }
}
