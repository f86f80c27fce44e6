package io.adaptivecache.strategy;

import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;
import io.adaptivecache.CachePoolExhaustedException;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.jspecify.annotations.Nullable;

/**
 * POOLED: a commons-pool2 {@link GenericObjectPool} of connections, each used by one caller at
 * a time until its command completes. The only class that touches commons-pool2, so that the
 * library works without it as long as POOLED is not asked for.
 *
 * <p>Borrow wait and waiting borrowers are measured here, around the borrow call, rather than
 * read from the pool's own counters, which take the pool's locks.
 *
 * <p>A return never closes a connection. A lease comes back where its command completed, which for
 * an asynchronous driver is an I/O thread, and commons-pool2, on a return that finds max-idle
 * connections idle, closes the returned one and opens a replacement for a waiting borrower: a
 * blocking connect that waits for the I/O thread it runs on (with every I/O thread caught so, the
 * client hung). So the pool keeps what is returned, and its evictor, on a thread of its own,
 * closes idle connections beyond max-idle every {@link #TRIM_EVERY}.
 *
 * <p>Callers get their turns in order: a connection that comes back goes to the caller that has
 * waited longest. Unfair (commons-pool2's default), a caller in a closed loop that returns a
 * connection takes it again before the waiter it woke can, so under a surge of callers the waiters
 * that lose the race wait out max-wait and fail while the others are served thousands of times.
 * The order is kept by a fair semaphore of max-total permits taken before the borrow, not by the
 * pool's own fairness: that one makes the pool's lock fair, and every borrow and return takes that
 * lock, so with as many callers as connections (none waiting for a connection) each of them queued
 * for the lock in turn; a fair semaphore queues a caller only when every permit is taken, and the
 * pool behind it always has a connection to give. {@link GenericObjectPoolConfig#setFairness} set
 * by a {@link PoolConfigCustomizer} decides whether turns are in order (on unless it turns it off).
 */
final class PooledConnectionStrategy<C> extends AbstractConnectionStrategy<C> {

    private static final String POOL_CLASS = "org.apache.commons.pool2.impl.GenericObjectPool";

    /** How often idle connections beyond max-idle are closed. */
    static final Duration TRIM_EVERY = Duration.ofSeconds(1);

    private final GenericObjectPool<Lease> pool;
    /** One permit per connection the pool may hold, taken before a borrow; null for a pool without a bound. */
    private final @Nullable Semaphore turns;
    private final long maxWaitMillis;
    /** The same wait as a Duration, made once: commons-pool2 would make one from the millis on every borrow. */
    private final Duration maxWait;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final LongAdder borrows = new LongAdder();
    private final LongAdder borrowWaitNanos = new LongAdder();

    private PooledConnectionStrategy(StrategySpec spec, ConnectionFactory<C> factory, PoolConfigCustomizer customizer) {
        super(spec, factory);
        PoolSettings settings = spec.pool();
        GenericObjectPoolConfig<Lease> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(settings.maxTotal());
        config.setMaxIdle(settings.maxIdle());
        config.setMinIdle(settings.minIdle());
        config.setMaxWait(settings.maxWait());
        config.setBlockWhenExhausted(true);
        config.setFairness(true);
        config.setTestOnBorrow(true); // ConnectionFactory.isUsable is cheap by contract
        config.setJmxEnabled(false);
        customizer.customize(config);
        int maxIdle = config.getMaxIdle();
        if (maxIdle >= 0 && (config.getMaxTotal() < 0 || maxIdle < config.getMaxTotal())) {
            // See the class comment: returns keep every connection; the evictor closes those beyond max-idle.
            config.setMaxIdle(-1);
            config.setEvictionPolicy((evictionConfig, idle, idleCount) -> idleCount > maxIdle);
            config.setTimeBetweenEvictionRuns(TRIM_EVERY);
            config.setNumTestsPerEvictionRun(config.getMaxTotal() < 0 ? Integer.MAX_VALUE : config.getMaxTotal());
        }
        // Turns are kept in order by the semaphore; the pool's own lock stays unfair (see the class comment).
        this.turns = config.getMaxTotal() > 0 ? new Semaphore(config.getMaxTotal(), config.getFairness()) : null;
        config.setFairness(false);
        this.pool = new GenericObjectPool<>(new LeaseFactory(), config);
        this.maxWaitMillis = settings.maxWait().toMillis();
        this.maxWait = Duration.ofMillis(this.maxWaitMillis);
    }

    static <C> PooledConnectionStrategy<C> open(StrategySpec spec, ConnectionFactory<C> factory, PoolConfigCustomizer customizer) {
        try {
            Class.forName(POOL_CLASS, false, PooledConnectionStrategy.class.getClassLoader());
        }
        catch (ClassNotFoundException ex) {
            throw new IllegalStateException("The POOLED strategy needs org.apache.commons:commons-pool2 on the classpath", ex);
        }
        PooledConnectionStrategy<C> strategy = new PooledConnectionStrategy<>(spec, factory, customizer);
        try {
            strategy.pool.addObjects(Math.max(1, Math.min(spec.pool().minIdle(), spec.pool().maxIdle())));
        }
        catch (RuntimeException ex) {
            strategy.pool.close();
            throw ex;
        }
        catch (Exception ex) {
            strategy.pool.close();
            throw new CacheConnectionException("Cannot open a pooled connection to " + factory.describe(), ex);
        }
        return strategy;
    }

    @Override
    public @Nullable ConnectionLease<C> tryAcquire() {
        if (!countIn(inFlight)) {
            return null;
        }
        long start = System.nanoTime();
        waiting.incrementAndGet();
        boolean turnTaken = false;
        try {
            // The timed form keeps a fair semaphore's order even when a permit is free (the untimed one barges).
            if (turns != null && !(turnTaken = turns.tryAcquire(maxWaitMillis, TimeUnit.MILLISECONDS))) {
                throw new NoSuchElementException("Timeout waiting for a turn");
            }
            return pool.borrowObject(maxWait);
        }
        catch (NoSuchElementException ex) {
            giveBack(turnTaken);
            throw new CachePoolExhaustedException("No pooled connection to " + factory.describe() + " became free within "
                    + maxWaitMillis + " ms (max-total " + spec.pool().maxTotal() + "); raise max-total or max-wait, or use MULTI",
                    ex);
        }
        catch (CacheException ex) {
            giveBack(turnTaken);
            throw ex;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            giveBack(turnTaken);
            throw new CacheConnectionException("Interrupted while waiting for a pooled connection to " + factory.describe(), ex);
        }
        catch (Exception ex) {
            giveBack(turnTaken);
            throw new CacheConnectionException("Cannot borrow a pooled connection to " + factory.describe(), ex);
        }
        finally {
            waiting.decrementAndGet();
            borrows.increment();
            borrowWaitNanos.add(System.nanoTime() - start);
        }
    }

    /** After a failed borrow: the caller's turn and its count in flight go back. */
    private void giveBack(boolean turnTaken) {
        Semaphore turns = this.turns;
        if (turnTaken && turns != null) {
            turns.release();
        }
        countOut(inFlight);
    }

    /** @return whether borrows and returns take the pool's lock in arrival order (never: turns are ordered before it) */
    boolean poolLockFair() {
        return pool.getFairness();
    }

    /** @return whether waiting callers get their turns in arrival order */
    boolean turnsInOrder() {
        return turns != null && turns.isFair();
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public StrategyStats stats() {
        return new StrategyStats(spec, open.get(), inFlight.get(), waiting.get(), borrows.sum(),
                borrowWaitNanos.sum());
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return super.toString() + " waiting=" + waiting.get() + " avgWait="
                + TimeUnit.NANOSECONDS.toMicros(borrowWaitNanos.sum() / Math.max(1, borrows.sum())) + "us";
    }

    /** A pooled connection; the pool keeps the same object, so a borrow allocates no wrapper. */
    private final class Lease extends HeldConnection<C> {

        Lease(C connection) {
            super(connection);
        }

        @Override
        public void release() {
            pool.returnObject(this);
            // After the return, so that the caller given this turn finds the connection idle in the pool.
            Semaphore turns = PooledConnectionStrategy.this.turns;
            if (turns != null) {
                turns.release();
            }
            countOut(inFlight);
        }
    }

    private final class LeaseFactory extends BasePooledObjectFactory<Lease> {

        @Override
        public Lease create() {
            Lease lease = new Lease(factory.open());
            open.incrementAndGet();
            return lease;
        }

        @Override
        public PooledObject<Lease> wrap(Lease lease) {
            return new DefaultPooledObject<>(lease);
        }

        @Override
        public boolean validateObject(PooledObject<Lease> pooled) {
            return factory.isUsable(pooled.getObject().connection);
        }

        @Override
        public void destroyObject(PooledObject<Lease> pooled) {
            open.decrementAndGet();
            factory.close(pooled.getObject().connection);
        }
    }
}
