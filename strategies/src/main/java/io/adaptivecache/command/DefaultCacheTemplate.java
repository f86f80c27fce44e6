package io.adaptivecache.command;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheTemplate;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.metrics.CacheCommand;
import io.adaptivecache.metrics.TemplateSensors;
import io.adaptivecache.strategy.PoolConfigCustomizer;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import io.adaptivecache.strategy.SwappableConnectionStrategy;
import io.adaptivecache.strategy.SwitchReport;

/**
 * The {@link CacheTemplate} of every backend: validates input with the backend's
 * {@link CacheInputRules}, leases a connection from the live strategy, and issues the
 * backend's command on it. Backends differ only in their {@link CacheBackend}.
 *
 * <p>Lifecycle: {@link #start()} opens the connections (so that building a template never does
 * I/O), {@link #switchStrategy} replaces the strategy while calls run, {@link #close()} drains
 * and closes.
 *
 * @param <C> the backend's native connection type
 */
public final class DefaultCacheTemplate<C> extends AbstractCacheOperations<byte[]> implements CacheTemplate {

    private final String name;
    private final CacheBackend<C> backend;
    private final CacheCommands<C> commands;
    private final CacheInputRules rules;
    private final StrategySpec initialStrategy;
    private final SwappableConnectionStrategy<C> connections;
    private final long awaitNanos;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final TemplateSensors sensors = new TemplateSensors();

    /**
     * Creates a template that is not started yet.
     * @param name the template's name, for logs and metrics
     * @param backend the backend
     * @param initialStrategy the strategy to open on {@link #start()}
     * @param drainTimeout longest wait for a retired strategy's calls to finish
     */
    public DefaultCacheTemplate(String name, CacheBackend<C> backend, StrategySpec initialStrategy, Duration drainTimeout) {
        this(name, backend, initialStrategy, drainTimeout, PoolConfigCustomizer.NONE);
    }

    /**
     * Creates a template that is not started yet, with a hook into POOLED strategies' pools.
     * @param name the template's name, for logs and metrics
     * @param backend the backend
     * @param initialStrategy the strategy to open on {@link #start()}
     * @param drainTimeout longest wait for a retired strategy's calls to finish
     * @param poolCustomizer adjusts the commons-pool2 configuration of every POOLED strategy
     */
    public DefaultCacheTemplate(String name, CacheBackend<C> backend, StrategySpec initialStrategy, Duration drainTimeout,
            PoolConfigCustomizer poolCustomizer) {
        this.name = Objects.requireNonNull(name, "name");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.commands = backend.commands();
        this.rules = backend.inputRules();
        this.initialStrategy = Objects.requireNonNull(initialStrategy, "initialStrategy");
        this.connections = new SwappableConnectionStrategy<>(backend.connections(), backend.exceptionTranslator(),
                drainTimeout, poolCustomizer, this.sensors);
        // A safety net behind the client's own timer, which is expected to fire first.
        this.awaitNanos = backend.commandTimeout().multipliedBy(2).plusSeconds(1).toNanos();
    }

    /**
     * Opens the initial strategy's connections.
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached
     */
    public void start() {
        connections.start(initialStrategy);
    }

    /**
     * Whether the template serves calls.
     * @return {@code true} between {@link #start()} and {@link #close()}
     */
    public boolean isRunning() {
        return connections.isRunning();
    }

    /**
     * Replaces the connection strategy while calls run; no call fails because of it.
     * @param spec the new strategy
     * @return what the switch did
     */
    public SwitchReport switchStrategy(StrategySpec spec) {
        return connections.switchTo(spec);
    }

    /**
     * The live strategy.
     * @return its spec
     */
    public StrategySpec activeStrategy() {
        return connections.activeSpec();
    }

    /**
     * The live strategy's figures.
     * @return the figures
     */
    public StrategyStats strategyStats() {
        return connections.stats();
    }

    /**
     * Connections borrowed from POOLED strategies since start, across switches.
     * @return the count
     */
    public long totalBorrows() {
        return connections.totalBorrows();
    }

    /**
     * Time callers spent waiting for a pooled connection since start, across switches.
     * @return nanoseconds
     */
    public long totalBorrowWaitNanos() {
        return connections.totalBorrowWaitNanos();
    }

    /**
     * Connections this template has open, including those of a strategy still draining.
     * @return the count
     */
    public int openConnections() {
        return connections.openConnections();
    }

    /**
     * This template's sensors: per-call latency and outcome counts, sampled per window by the
     * adaptive switcher; attach a further observer (Micrometer) with {@link TemplateSensors#observeWith}.
     * @return the sensors
     */
    public TemplateSensors sensors() {
        return sensors;
    }

    /**
     * The backend's kind, such as {@code redis}.
     * @return the kind
     */
    public String backendKind() {
        return backend.kind();
    }

    /**
     * The input this template accepts.
     * @return the rules
     */
    public CacheInputRules inputRules() {
        return rules;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    long awaitNanos() {
        return awaitNanos;
    }

    @Override
    public <T> CacheOperations<T> withCodec(ValueCodec<T> codec) {
        return new CodecCacheOperations<>(this, codec);
    }

    @Override
    public CompletableFuture<byte[]> getAsync(String key) {
        rules.checkKey(key);
        return connections.execute(CacheCommand.GET, connection -> commands.get(connection, key));
    }

    @Override
    public CompletableFuture<Map<String, byte[]>> getAllAsync(Collection<String> keys) {
        if (keys == null) {
            throw new InvalidCacheInputException("The key collection must not be null");
        }
        LinkedHashSet<String> distinct = new LinkedHashSet<>(keys);
        for (String key : distinct) {
            rules.checkKey(key);
        }
        if (distinct.isEmpty()) {
            return CompletableFuture.completedFuture(Collections.emptyMap());
        }
        ArrayList<String> ordered = new ArrayList<>(distinct);
        return connections.execute(CacheCommand.GET_ALL, connection -> commands.getAll(connection, ordered));
    }

    @Override
    public CompletableFuture<Void> setAsync(String key, byte[] value, Duration ttl) {
        checkWrite(key, value, ttl);
        return connections.execute(CacheCommand.SET, connection -> commands.set(connection, key, value, ttl));
    }

    @Override
    public CompletableFuture<Boolean> addAsync(String key, byte[] value, Duration ttl) {
        checkWrite(key, value, ttl);
        return connections.execute(CacheCommand.ADD, connection -> commands.add(connection, key, value, ttl));
    }

    @Override
    public CompletableFuture<Boolean> replaceAsync(String key, byte[] value, Duration ttl) {
        checkWrite(key, value, ttl);
        return connections.execute(CacheCommand.REPLACE, connection -> commands.replace(connection, key, value, ttl));
    }

    @Override
    public CompletableFuture<Boolean> deleteAsync(String key) {
        rules.checkKey(key);
        return connections.execute(CacheCommand.DELETE, connection -> commands.delete(connection, key));
    }

    @Override
    public CompletableFuture<CasValue<byte[]>> getsAsync(String key) {
        rules.checkKey(key);
        return connections.execute(CacheCommand.GETS, connection -> commands.gets(connection, key));
    }

    @Override
    public CompletableFuture<CasResult> casAsync(String key, CasToken token, byte[] value, Duration ttl) {
        checkWrite(key, value, ttl);
        if (token == null) {
            throw new InvalidCacheInputException("A CAS token must not be null; read one with gets");
        }
        return connections.execute(CacheCommand.CAS, connection -> commands.cas(connection, key, token, value, ttl));
    }

    @Override
    public CompletableFuture<Long> incrAsync(String key, long delta) {
        rules.checkKey(key);
        rules.checkDelta(delta);
        return connections.execute(CacheCommand.INCR, connection -> commands.incr(connection, key, delta));
    }

    @Override
    public CompletableFuture<Long> decrAsync(String key, long delta) {
        rules.checkKey(key);
        rules.checkDelta(delta);
        return connections.execute(CacheCommand.DECR, connection -> commands.decr(connection, key, delta));
    }

    @Override
    public CompletableFuture<Boolean> touchAsync(String key, Duration ttl) {
        rules.checkKey(key);
        rules.checkTtl(ttl);
        return connections.execute(CacheCommand.TOUCH, connection -> commands.touch(connection, key, ttl));
    }

    private void checkWrite(String key, byte[] value, Duration ttl) {
        rules.checkKey(key);
        rules.checkValue(value);
        rules.checkTtl(ttl);
    }

    /** Drains calls in flight, closes every connection, then releases the backend's resources. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            connections.close();
        }
        finally {
            backend.close();
        }
    }

    @Override
    public String toString() {
        return "CacheTemplate[" + name + ", " + backend.kind() + " " + backend.connections().describe() + "]";
    }
}
