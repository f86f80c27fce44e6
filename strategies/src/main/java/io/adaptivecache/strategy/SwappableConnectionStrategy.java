package io.adaptivecache.strategy;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.Command;
import io.adaptivecache.call.CallObserver;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a template's live {@link ConnectionStrategy} and replaces it at runtime without
 * failing a call.
 *
 * <p>A switch opens the new strategy warm, publishes it in one volatile write, then retires
 * the old one: calls that already hold a lease on it finish there (a lease is released when
 * the command's result arrives), calls that race with the switch see the retirement and take
 * the new strategy instead. The old strategy is closed when its last lease is released, or when
 * the drain timeout passes, whichever comes first; set the drain timeout above the command
 * timeout so that the first always wins.
 *
 * <p>Which strategy a spec opens is its {@link StrategyFactory}'s business; each call says only
 * whether its caller may block. This class is the mechanism only; deciding <em>when</em> to switch
 * belongs to the caller (an operator, or the adaptive controller).
 *
 * @param <C> the native connection type
 */
public final class SwappableConnectionStrategy<C> implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(SwappableConnectionStrategy.class);

    private final ConnectionFactory<C> factory;
    private final StrategyFactory<C> strategies;
    private final OpenConnections open = new OpenConnections();
    private final int connectionLimit;
    private final LeasedCalls<C> calls;
    private final Duration drainTimeout;
    private final PoolConfigCustomizer poolCustomizer;
    private final Consumer<StrategySpec> liveStrategy;
    private final ReentrantLock switchLock = new ReentrantLock();
    // null until started; then never null again (close keeps the last one to report on).
    private volatile @Nullable ConnectionStrategy<C> active;
    private volatile long retiredBorrows;
    private volatile long retiredBorrowWaitNanos;
    private volatile boolean closed;

    /**
     * Creates an instance that is not started yet.
     * @param factory the backend's connections
     * @param translator turns the backend's exceptions into cache exceptions
     * @param drainTimeout longest wait for a retired strategy's calls to finish before closing it
     */
    public SwappableConnectionStrategy(ConnectionFactory<C> factory, ExceptionTranslator translator,
            Duration drainTimeout) {
        this(factory, StrategyFactory.of(factory), translator, drainTimeout, PoolConfigCustomizer.NONE, CallObserver.NONE, live -> {
        }, StrategySpec.DEFAULT_CONNECTION_LIMIT);
    }

    /**
     * Creates an instance that is not started yet.
     * @param factory the backend's connections: where they go, whether the server can be reached
     * @param strategies opens the strategy each spec names
     * @param translator turns the backend's exceptions into cache exceptions
     * @param drainTimeout longest wait for a retired strategy's calls to finish before closing it
     * @param poolCustomizer adjusts the commons-pool2 configuration of every POOLED strategy
     * @param observer told about every call when it completes
     * @param liveStrategy told of the live strategy whenever it changes (under the switch, off the hot path)
     * @param connectionLimit the most connections a strategy switched to may have (the first one is not checked)
     */
    public SwappableConnectionStrategy(ConnectionFactory<C> factory, StrategyFactory<C> strategies, ExceptionTranslator translator,
            Duration drainTimeout, PoolConfigCustomizer poolCustomizer, CallObserver observer, Consumer<StrategySpec> liveStrategy,
            int connectionLimit) {
        if (connectionLimit < 1) {
            throw new IllegalArgumentException("The connection limit must be at least 1, was " + connectionLimit);
        }
        this.connectionLimit = connectionLimit;
        this.strategies = Objects.requireNonNull(strategies, "strategies");
        this.liveStrategy = Objects.requireNonNull(liveStrategy, "liveStrategy");
        this.poolCustomizer = Objects.requireNonNull(poolCustomizer, "poolCustomizer");
        this.factory = Objects.requireNonNull(factory, "factory");
        this.calls = new LeasedCalls<>(observer, translator);
        this.drainTimeout = Objects.requireNonNull(drainTimeout, "drainTimeout");
    }

    /**
     * Opens the first strategy.
     * @param spec what to open
     * @throws IllegalStateException if already started or closed
     */
    public void start(StrategySpec spec) {
        startWith(spec, () -> strategies.open(spec, open, poolCustomizer));
        logger.debug("Opened {} to {}", spec, factory.describe());
    }

    /**
     * Starts without connections: calls are refused at once with a
     * {@link CacheConnectionException} naming {@code reason} until {@link #connect()} opens
     * {@code spec}. For a template that must start while its server cannot be reached
     * ({@code on-failure: degrade}).
     * @param spec what {@link #connect()} opens
     * @param reason why it could not be opened now
     * @throws IllegalStateException if already started or closed
     */
    public void startNotConnected(StrategySpec spec, CacheException reason) {
        Objects.requireNonNull(reason, "reason");
        startWith(spec, () -> new NotConnectedStrategy<>(spec, factory.describe(), reason));
    }

    private void startWith(StrategySpec spec, Supplier<ConnectionStrategy<C>> first) {
        Objects.requireNonNull(spec, "spec");
        switchLock.lock();
        try {
            if (closed || active != null) {
                throw new IllegalStateException(closed ? "Already closed" : "Already started with " + active.spec());
            }
            active = first.get();
            liveStrategy.accept(spec);
        }
        finally {
            switchLock.unlock();
        }
    }

    /**
     * Opens the strategy that {@link #startNotConnected} deferred and swaps it in, so that
     * calls are served from then on. Does nothing if already connected or closed.
     * @return {@code true} if connected now, {@code false} if closed
     * @throws CacheException if the server still cannot be reached (calls then name this failure)
     * @throws IllegalStateException if not started
     */
    public boolean connect() {
        switchLock.lock();
        try {
            if (closed) {
                return false;
            }
            if (!(active instanceof NotConnectedStrategy<C> pending)) {
                if (active == null) {
                    throw new IllegalStateException("Not started");
                }
                return true;
            }
            ConnectionStrategy<C> fresh;
            try {
                factory.checkReachable();
                fresh = strategies.open(pending.spec(), open, poolCustomizer);
            }
            catch (CacheException ex) {
                pending.failed(ex);
                throw ex;
            }
            // The placeholder held no lease and no connection: nothing to drain or close.
            active = fresh;
            liveStrategy.accept(fresh.spec());
            logger.debug("Opened {} to {}", pending.spec(), factory.describe());
            return true;
        }
        finally {
            switchLock.unlock();
        }
    }

    /**
     * Whether the strategy is open: {@code false} between {@link #startNotConnected} and a
     * successful {@link #connect()}, and before starting.
     * @return {@code true} if calls reach the server
     */
    public boolean isConnected() {
        ConnectionStrategy<C> strategy = active;
        return strategy != null && !(strategy instanceof NotConnectedStrategy);
    }

    /**
     * Whether started (closed or not): whether there is a live, or last, strategy to report on.
     * @return {@code true} once started
     */
    public boolean isStarted() {
        return active != null;
    }

    /**
     * Whether started and not closed.
     * @return {@code true} if calls are served
     */
    public boolean isRunning() {
        return active != null && !closed;
    }

    /**
     * Runs one command on a leased connection and releases the lease when the command's result
     * arrives. Failures, including a pool that has no free connection, complete the returned
     * future exceptionally with a {@link CacheException}. The observer hears of the call once,
     * with its latency from this method's start (so including any wait for a connection), and of
     * its reply.
     * @param command the command
     * @param commands issue it on the leased connection; must not block
     * @param callerMayBlock whether the caller waits for the reply on its own thread, so that a
     *     strategy whose connections block their caller may serve it (see
     *     {@link ConnectionStrategy#tryAcquireWithoutBlocking()})
     * @param <T> the result type
     * @return the command's result
     */
    public <T extends @Nullable Object> CompletableFuture<T> execute(Command<T> command, CacheCommands<C> commands,
            boolean callerMayBlock) {
        long started = System.nanoTime();
        ConnectionLease<C> lease;
        try {
            lease = acquire(callerMayBlock);
        }
        catch (RuntimeException ex) {
            return calls.failed(command.kind(), started, ex);
        }
        return calls.run(command, commands, lease, callerMayBlock, started);
    }

    /**
     * Leases the live strategy's connection for one command that the caller issues on it
     * itself, as {@link #execute} leases one for a template call: a SHARED strategy's next
     * connection, or a connection borrowed from a POOLED one (waiting up to its max-wait). Release
     * the lease exactly once, when the command's reply has arrived; until then a switch waits for
     * it as it waits for a template call (within the drain timeout). For bridges that drive the
     * native connection with their own commands, such as a Spring Data Redis connection factory.
     * @param callerMayBlock whether the caller waits for the reply on its own thread (see
     *     {@link #execute(Command, CacheCommands, boolean)})
     * @return the lease
     * @throws CacheException if not started, closed, not connected, or no pooled connection became free in time
     */
    public ConnectionLease<C> lease(boolean callerMayBlock) {
        try {
            return acquire(callerMayBlock);
        }
        catch (RuntimeException ex) {
            throw calls.translate(ex);
        }
    }

    private ConnectionLease<C> acquire(boolean callerMayBlock) {
        for (;;) {
            ConnectionStrategy<C> strategy = active;
            if (strategy == null || closed) {
                throw new CacheConnectionException(strategy == null ? "The cache template to " + factory.describe()
                        + " has not been started" : "The cache template to " + factory.describe() + " is closed", null);
            }
            ConnectionLease<C> lease = callerMayBlock ? strategy.tryAcquire() : strategy.tryAcquireWithoutBlocking();
            if (lease != null) {
                return lease;
            }
            // Retired under us: its successor was published before the retirement, so the next read sees it.
            Thread.onSpinWait();
        }
    }

    /**
     * Replaces the live strategy: opens the new one warm, swaps it in, waits for the old one's
     * calls to finish (at most the drain timeout) and closes it. Blocks the calling thread for
     * that time; switches are serialized. If the new strategy cannot be opened, the old one
     * stays live and the exception is thrown.
     * @param spec the strategy to switch to
     * @return what the switch did; {@link SwitchReport#changed()} is {@code false} if {@code spec} was already live
     * @throws IllegalArgumentException if {@code spec} has more connections than the limit: nothing is opened
     */
    public SwitchReport switchTo(StrategySpec spec) {
        Objects.requireNonNull(spec, "spec");
        // Here, where every switch opens its connections, whoever asks: an operator, the policy or code of the application's.
        if (spec.connections() > connectionLimit) {
            throw new IllegalArgumentException(spec + " asks for " + spec.connections() + " connections, above the limit of "
                    + connectionLimit + " for " + factory.describe() + "; nothing was opened");
        }
        switchLock.lock();
        try {
            ConnectionStrategy<C> old = active;
            if (old == null || closed) {
                throw new IllegalStateException("Cannot switch: " + (closed ? "closed" : "not started"));
            }
            if (old instanceof NotConnectedStrategy) {
                // Nothing is opened: the template connects with its configured strategy first.
                throw new IllegalStateException("Cannot switch: not connected to " + factory.describe() + " yet");
            }
            if (old.spec().equals(spec)) {
                return new SwitchReport(spec, spec, Duration.ZERO, Duration.ZERO, true);
            }
            long started = System.nanoTime();
            ConnectionStrategy<C> fresh = strategies.open(spec, open, poolCustomizer);
            long warmed = System.nanoTime();
            active = fresh;
            liveStrategy.accept(spec);
            boolean clean = drainAndClose(old);
            long drained = System.nanoTime();
            logger.info("Switched {} from {} to {} (warm-up {} ms, drain {} ms{})", factory.describe(), old.spec(), spec,
                    TimeUnit.NANOSECONDS.toMillis(warmed - started), TimeUnit.NANOSECONDS.toMillis(drained - warmed),
                    clean ? "" : ", drain timed out");
            return new SwitchReport(old.spec(), spec, Duration.ofNanos(warmed - started), Duration.ofNanos(drained - warmed),
                    clean);
        }
        finally {
            switchLock.unlock();
        }
    }

    private boolean drainAndClose(ConnectionStrategy<C> retiring) {
        boolean clean = true;
        try {
            retiring.retire().get(drainTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException ex) {
            clean = false;
            logger.warn("{} still had {} calls in flight after the drain timeout of {} ms; closing it anyway",
                    retiring.spec(), retiring.inFlight(), drainTimeout.toMillis());
        }
        catch (InterruptedException ex) {
            clean = false;
            Thread.currentThread().interrupt();
        }
        catch (ExecutionException ex) {
            throw new IllegalStateException("Drain cannot fail", ex);
        }
        StrategyStats last = retiring.stats();
        retiring.close();
        // Written under the switch lock only; readers take a consistent-enough sum for metrics.
        this.retiredBorrows += last.borrows();
        this.retiredBorrowWaitNanos += last.borrowWaitNanos();
        return clean;
    }

    /**
     * The longest wait for a retired strategy's calls to finish before its connections close.
     * @return the drain timeout
     */
    public Duration drainTimeout() {
        return this.drainTimeout;
    }

    /**
     * The spec of the live strategy.
     * @return the spec
     * @throws IllegalStateException if not started
     */
    public StrategySpec activeSpec() {
        return current().spec();
    }

    /**
     * The live strategy's figures.
     * @return the figures
     * @throws IllegalStateException if not started
     */
    public StrategyStats stats() {
        return current().stats();
    }

    /**
     * Connections open right now across the live strategy and any that is still draining.
     * @return the count
     */
    public int openConnections() {
        return open.count();
    }

    /**
     * Connections borrowed from POOLED strategies since this instance started, across switches.
     * @return the count
     */
    public long totalBorrows() {
        ConnectionStrategy<C> strategy = active;
        return this.retiredBorrows + (strategy == null ? 0 : strategy.stats().borrows());
    }

    /**
     * Time callers spent waiting for a pooled connection since this instance started, across switches.
     * @return the total, in nanoseconds
     */
    public long totalBorrowWaitNanos() {
        ConnectionStrategy<C> strategy = active;
        return this.retiredBorrowWaitNanos + (strategy == null ? 0 : strategy.stats().borrowWaitNanos());
    }

    private ConnectionStrategy<C> current() {
        ConnectionStrategy<C> strategy = active;
        if (strategy == null) {
            throw new IllegalStateException("Not started");
        }
        return strategy;
    }

    /**
     * Stops accepting calls, waits up to the drain timeout for calls in flight, and closes
     * every connection. Idempotent.
     */
    @Override
    public void close() {
        switchLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            ConnectionStrategy<C> last = active;
            if (last != null) {
                drainAndClose(last);
            }
        }
        finally {
            switchLock.unlock();
        }
    }
}
