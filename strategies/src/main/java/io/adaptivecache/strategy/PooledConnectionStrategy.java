package io.adaptivecache.strategy;

import java.util.NoSuchElementException;
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
 */
final class PooledConnectionStrategy<C> extends AbstractConnectionStrategy<C> {

    private static final String POOL_CLASS = "org.apache.commons.pool2.impl.GenericObjectPool";

    private final GenericObjectPool<Lease<C>> pool;
    private final long maxWaitMillis;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final LongAdder borrows = new LongAdder();
    private final LongAdder borrowWaitNanos = new LongAdder();

    private PooledConnectionStrategy(StrategySpec spec, ConnectionFactory<C> factory, PoolConfigCustomizer customizer) {
        super(spec, factory);
        PoolSettings settings = spec.pool();
        GenericObjectPoolConfig<Lease<C>> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(settings.maxTotal());
        config.setMaxIdle(settings.maxIdle());
        config.setMinIdle(settings.minIdle());
        config.setMaxWait(settings.maxWait());
        config.setBlockWhenExhausted(true);
        config.setTestOnBorrow(true); // ConnectionFactory.isUsable is cheap by contract
        config.setJmxEnabled(false);
        customizer.customize(config);
        this.pool = new GenericObjectPool<>(new LeaseFactory(), config);
        this.maxWaitMillis = settings.maxWait().toMillis();
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
        inFlight.incrementAndGet();
        if (isRetired()) {
            releaseSlot();
            return null;
        }
        long start = System.nanoTime();
        waiting.incrementAndGet();
        try {
            return pool.borrowObject(maxWaitMillis);
        }
        catch (NoSuchElementException ex) {
            releaseSlot();
            throw new CachePoolExhaustedException("No pooled connection to " + factory.describe() + " became free within "
                    + maxWaitMillis + " ms (max-total " + spec.pool().maxTotal() + "); raise max-total or max-wait, or use MULTI",
                    ex);
        }
        catch (CacheException ex) {
            releaseSlot();
            throw ex;
        }
        catch (Exception ex) {
            releaseSlot();
            throw new CacheConnectionException("Cannot borrow a pooled connection to " + factory.describe(), ex);
        }
        finally {
            waiting.decrementAndGet();
            borrows.increment();
            borrowWaitNanos.add(System.nanoTime() - start);
        }
    }

    private void releaseSlot() {
        inFlight.decrementAndGet();
        if (isRetired()) {
            completeIfDrained();
        }
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
    private static final class Lease<C> implements ConnectionLease<C> {

        private final C connection;
        private final PooledConnectionStrategy<C> owner;

        Lease(C connection, PooledConnectionStrategy<C> owner) {
            this.connection = connection;
            this.owner = owner;
        }

        @Override
        public C connection() {
            return connection;
        }

        @Override
        public void release() {
            owner.pool.returnObject(this);
            owner.releaseSlot();
        }
    }

    private final class LeaseFactory extends BasePooledObjectFactory<Lease<C>> {

        @Override
        public Lease<C> create() {
            Lease<C> lease = new Lease<>(factory.open(), PooledConnectionStrategy.this);
            open.incrementAndGet();
            return lease;
        }

        @Override
        public PooledObject<Lease<C>> wrap(Lease<C> lease) {
            return new DefaultPooledObject<>(lease);
        }

        @Override
        public boolean validateObject(PooledObject<Lease<C>> pooled) {
            return factory.isUsable(pooled.getObject().connection);
        }

        @Override
        public void destroyObject(PooledObject<Lease<C>> pooled) {
            open.decrementAndGet();
            factory.close(pooled.getObject().connection);
        }
    }
}
