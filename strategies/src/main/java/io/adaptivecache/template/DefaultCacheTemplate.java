package io.adaptivecache.template;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.CacheOperations;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.backend.CacheCommands;
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.backend.NodeProbe;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.management.PendingConnection;
import io.adaptivecache.metrics.NodeSensors;
import io.adaptivecache.metrics.TemplateSensors;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.resilience.GuardStatus;
import io.adaptivecache.strategy.PoolConfigCustomizer;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import io.adaptivecache.strategy.SwappableConnectionStrategy;
import io.adaptivecache.strategy.SwitchReport;
import org.jspecify.annotations.Nullable;

/**
 * The {@link ManagedCacheTemplate} of every backend, built by {@link AbstractCacheTemplateBuilder}
 * and known to everything else by its interfaces only: validates input with the backend's
 * {@link CacheInputRules}, passes the call through its {@link CallGuard} (circuit breaker and
 * the like), leases a connection from the live strategy, and issues the backend's command on it.
 * Backends differ only in their {@link CacheBackend}. In {@link CacheFailureMode#DEGRADE} mode a
 * failed read completes as a miss and a failed write as skipped, each counted.
 *
 * <p>The futures of the {@code ...Async} forms complete on a completion executor (the template's
 * own small one, or one given to the builder), never on a driver's I/O thread; the synchronous
 * forms wait on the driver's future directly and pay nothing for it.
 *
 * <p>Lifecycle: {@link #start()} opens the connections (so that building a template never does
 * I/O), {@link #switchStrategy} replaces the strategy while calls run, {@link #close()} drains
 * and closes.
 *
 * @param <C> the backend's native connection type
 */
final class DefaultCacheTemplate<C> extends AbstractCacheOperations<byte[]> implements ManagedCacheTemplate {

    /** A caller that waits for the reply on its own thread: it may be served by a blocking connection. */
    private static final boolean SYNC = false;

    /** A caller of an {@code ...Async} form: it must get its future without blocking. */
    private static final boolean ASYNC = true;

    /** Most threads of a template's own completion executor: they complete futures and run the stages callers chain on them. */
    private static final int MAX_COMPLETION_THREADS = 8;

    private final String name;
    private final CacheBackend<C> backend;
    private final CacheCommands<C> commands;
    private final CacheInputRules rules;
    private final StrategySpec initialStrategy;
    private final SwappableConnectionStrategy<C> connections;
    private final long awaitNanos;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final TemplateSensors sensors = new TemplateSensors();
    private final CallGuard guard;
    private final CacheFailureMode failureMode;
    private final LongAdder degradedReads = new LongAdder();
    private final LongAdder skippedWrites = new LongAdder();
    // Where the futures handed to ...Async callers complete; owned (and shut down on close) unless given by the builder.
    private final Executor completions;
    private final @Nullable ExecutorService ownedCompletions;
    // null unless configured: the default path reads this once per call and goes on as before.
    private volatile @Nullable CallInterceptor interceptor;
    // Set when the template started without its server (DEGRADE); read by health and the endpoint, never per call.
    private volatile @Nullable BackgroundConnector connector;
    // What reads found, counted into the window's value bytes: built once, so a read allocates nothing more for them.
    private final Consumer<byte @Nullable []> valueRead = value -> {
        if (value != null) {
            sensors.onValueBytes(value.length);
        }
    };
    private final Consumer<@Nullable CasValue<byte[]>> casValueRead = value -> {
        if (value != null) {
            sensors.onValueBytes(value.value().length);
        }
    };
    private final Consumer<Map<String, byte[]>> valuesRead = values -> {
        long bytes = 0;
        for (byte[] value : values.values()) {
            bytes += value == null ? 0 : value.length;
        }
        sensors.onValueBytes((int) Math.min(bytes, Integer.MAX_VALUE));
    };

    /**
     * Creates a template that is not started yet.
     * @param name the template's name, for logs and metrics
     * @param backend the backend
     * @param initialStrategy the strategy to open on {@link #start()}
     * @param drainTimeout longest wait for a retired strategy's calls to finish
     */
    DefaultCacheTemplate(String name, CacheBackend<C> backend, StrategySpec initialStrategy, Duration drainTimeout) {
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
    DefaultCacheTemplate(String name, CacheBackend<C> backend, StrategySpec initialStrategy, Duration drainTimeout,
            PoolConfigCustomizer poolCustomizer) {
        this(name, backend, initialStrategy, drainTimeout, poolCustomizer, CallGuard.NONE, CacheFailureMode.FAIL_FAST);
    }

    /**
     * Creates a template that is not started yet, guarded, completing its {@code ...Async} futures
     * on its own small executor.
     * @param name the template's name, for logs and metrics
     * @param backend the backend
     * @param initialStrategy the strategy to open on {@link #start()}
     * @param drainTimeout longest wait for a retired strategy's calls to finish
     * @param poolCustomizer adjusts the commons-pool2 configuration of every POOLED strategy
     * @param guard every call passes through it; the template closes it
     * @param failureMode what callers see when a call fails
     */
    DefaultCacheTemplate(String name, CacheBackend<C> backend, StrategySpec initialStrategy, Duration drainTimeout,
            PoolConfigCustomizer poolCustomizer, CallGuard guard, CacheFailureMode failureMode) {
        this(name, backend, initialStrategy, drainTimeout, poolCustomizer, guard, failureMode, null);
    }

    /**
     * Creates a template that is not started yet, guarded.
     * @param name the template's name, for logs and metrics
     * @param backend the backend
     * @param initialStrategy the strategy to open on {@link #start()}
     * @param drainTimeout longest wait for a retired strategy's calls to finish
     * @param poolCustomizer adjusts the commons-pool2 configuration of every POOLED strategy
     * @param guard every call passes through it; the template closes it
     * @param failureMode what callers see when a call fails
     * @param completionExecutor where the futures of the {@code ...Async} forms complete, which the caller owns; {@code null}
     *     for the template's own (see {@link #ownCompletionExecutor})
     */
    DefaultCacheTemplate(String name, CacheBackend<C> backend, StrategySpec initialStrategy, Duration drainTimeout,
            PoolConfigCustomizer poolCustomizer, CallGuard guard, CacheFailureMode failureMode, @Nullable Executor completionExecutor) {
        this.ownedCompletions = completionExecutor == null ? ownCompletionExecutor(name) : null;
        this.completions = completionExecutor != null ? completionExecutor : this.ownedCompletions;
        this.guard = Objects.requireNonNull(guard, "guard");
        this.failureMode = Objects.requireNonNull(failureMode, "failureMode");
        this.name = Objects.requireNonNull(name, "name");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.commands = backend.commands();
        this.rules = backend.inputRules();
        this.initialStrategy = Objects.requireNonNull(initialStrategy, "initialStrategy");
        this.connections = new SwappableConnectionStrategy<>(backend.connections(), backend.exceptionTranslator(),
                drainTimeout, poolCustomizer, this.sensors);
        backend.nodeSensors().ifPresent(this.sensors::judgeNodes);
        // A safety net behind the client's own timer, which is expected to fire first.
        this.awaitNanos = backend.commandTimeout().multipliedBy(2).plusSeconds(1).toNanos();
    }

    @Override
    public void start() {
        if (failureMode == CacheFailureMode.FAIL_FAST) {
            connections.start(initialStrategy);
            return;
        }
        try {
            connections.start(initialStrategy);
        }
        catch (CacheException ex) {
            if (ex instanceof InvalidCacheInputException || closed.get()) {
                throw ex;
            }
            // Only the server's failures (a CacheException) are waited out; a setting that can never work
            // (IllegalArgumentException, IllegalStateException) has failed the start above.
            connections.startNotConnected(initialStrategy, ex);
            BackgroundConnector started = new BackgroundConnector(name, connections, backend.connections().describe(), ex);
            this.connector = started;
            started.start();
        }
    }

    @Override
    public boolean isConnected() {
        return connections.isConnected();
    }

    @Override
    public Optional<PendingConnection> pendingConnection() {
        BackgroundConnector pending = this.connector;
        if (pending == null || connections.isConnected() || closed.get()) {
            return Optional.empty();
        }
        return Optional.of(pending.status());
    }

    @Override
    public boolean isRunning() {
        return connections.isRunning();
    }

    @Override
    public SwitchReport switchStrategy(StrategySpec spec) {
        return connections.switchTo(spec);
    }

    @Override
    public StrategySpec activeStrategy() {
        return connections.activeSpec();
    }

    @Override
    public Duration drainTimeout() {
        return connections.drainTimeout();
    }

    @Override
    public StrategyStats strategyStats() {
        return connections.stats();
    }

    @Override
    public long totalBorrows() {
        return connections.totalBorrows();
    }

    @Override
    public long totalBorrowWaitNanos() {
        return connections.totalBorrowWaitNanos();
    }

    @Override
    public int openConnections() {
        return connections.openConnections();
    }

    @Override
    public boolean pooledConnectionsBlock() {
        return backend.connections().exclusiveConnectionsBlock();
    }

    @Override
    public Optional<NodeSensors> nodeSensors() {
        return backend.nodeSensors();
    }

    @Override
    public Optional<NodeProbe> nodeProbe() {
        return backend.nodeProbe();
    }

    @Override
    public TemplateSensors sensors() {
        return sensors;
    }

    @Override
    public void interceptCallsWith(@Nullable CallInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    @Override
    public GuardStatus guardStatus() {
        return guard.status();
    }

    @Override
    public CacheFailureMode failureMode() {
        return failureMode;
    }

    @Override
    public long degradedReads() {
        return degradedReads.sum();
    }

    @Override
    public long skippedWrites() {
        return skippedWrites.sum();
    }

    @Override
    public String backendKind() {
        return backend.kind();
    }

    @Override
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
    public void probe(String key) {
        rules.checkKey(key);
        await(unintercepted(CacheCommand.GET, connection -> commands.get(connection, key), null, SYNC));
    }

    // Each command once, with where it may run: a synchronous caller may wait on a blocking pooled connection (its own
    // thread does the I/O, the fastest path for few callers); an ...Async caller never blocks, so while the live strategy
    // blocks, its calls take the async lane of shared connections.

    @Override
    public CompletableFuture<byte @Nullable []> getAsync(String key) {
        return handOff(get(key, ASYNC));
    }

    @Override
    public byte @Nullable [] get(String key) {
        return await(get(key, SYNC));
    }

    private CompletableFuture<byte @Nullable []> get(String key, boolean async) {
        rules.checkKey(key);
        return read(CacheCommand.GET, connection -> commands.get(connection, key), valueRead, null, async);
    }

    @Override
    public CompletableFuture<Map<String, byte[]>> getAllAsync(Collection<String> keys) {
        return handOff(getAll(keys, ASYNC));
    }

    @Override
    public Map<String, byte[]> getAll(Collection<String> keys) {
        return await(getAll(keys, SYNC));
    }

    private CompletableFuture<Map<String, byte[]>> getAll(Collection<String> keys, boolean async) {
        if (keys == null) {
            throw new InvalidCacheInputException("The key collection must not be null");
        }
        LinkedHashSet<String> distinct = new LinkedHashSet<>(Math.max(16, keys.size() * 2));
        for (String key : keys) {
            rules.checkKey(key);
            if (!distinct.add(key)) {
                throw new InvalidCacheInputException("Key " + CacheInputRules.quote(key)
                        + " appears more than once in the keys given to getAll; pass each key once");
            }
        }
        if (distinct.isEmpty()) {
            return CompletableFuture.completedFuture(Collections.emptyMap());
        }
        ArrayList<String> ordered = new ArrayList<>(distinct);
        return read(CacheCommand.GET_ALL, connection -> commands.getAll(connection, ordered), valuesRead, Collections.emptyMap(),
                async);
    }

    @Override
    public CompletableFuture<Void> setAsync(String key, byte[] value, Duration ttl) {
        return handOff(set(key, value, ttl, ASYNC));
    }

    @Override
    public void set(String key, byte[] value, Duration ttl) {
        await(set(key, value, ttl, SYNC));
    }

    private CompletableFuture<Void> set(String key, byte[] value, Duration ttl, boolean async) {
        checkWrite(key, value, ttl);
        sensors.onValueBytes(value.length);
        return write(CacheCommand.SET, connection -> commands.set(connection, key, value, ttl), null, async);
    }

    @Override
    public CompletableFuture<Boolean> addAsync(String key, byte[] value, Duration ttl) {
        return handOff(add(key, value, ttl, ASYNC));
    }

    @Override
    public boolean add(String key, byte[] value, Duration ttl) {
        return await(add(key, value, ttl, SYNC));
    }

    private CompletableFuture<Boolean> add(String key, byte[] value, Duration ttl, boolean async) {
        checkWrite(key, value, ttl);
        sensors.onValueBytes(value.length);
        return write(CacheCommand.ADD, connection -> commands.add(connection, key, value, ttl), Boolean.FALSE, async);
    }

    @Override
    public CompletableFuture<Boolean> replaceAsync(String key, byte[] value, Duration ttl) {
        return handOff(replace(key, value, ttl, ASYNC));
    }

    @Override
    public boolean replace(String key, byte[] value, Duration ttl) {
        return await(replace(key, value, ttl, SYNC));
    }

    private CompletableFuture<Boolean> replace(String key, byte[] value, Duration ttl, boolean async) {
        checkWrite(key, value, ttl);
        sensors.onValueBytes(value.length);
        return write(CacheCommand.REPLACE, connection -> commands.replace(connection, key, value, ttl), Boolean.FALSE, async);
    }

    @Override
    public CompletableFuture<Boolean> deleteAsync(String key) {
        return handOff(delete(key, ASYNC));
    }

    @Override
    public boolean delete(String key) {
        return await(delete(key, SYNC));
    }

    private CompletableFuture<Boolean> delete(String key, boolean async) {
        rules.checkKey(key);
        return write(CacheCommand.DELETE, connection -> commands.delete(connection, key), Boolean.FALSE, async);
    }

    @Override
    public CompletableFuture<@Nullable CasValue<byte[]>> getsAsync(String key) {
        return handOff(gets(key, ASYNC));
    }

    @Override
    public @Nullable CasValue<byte[]> gets(String key) {
        return await(gets(key, SYNC));
    }

    private CompletableFuture<@Nullable CasValue<byte[]>> gets(String key, boolean async) {
        rules.checkKey(key);
        return read(CacheCommand.GETS, connection -> commands.gets(connection, key), casValueRead, null, async);
    }

    @Override
    public CompletableFuture<CasResult> casAsync(String key, CasToken token, byte[] value, Duration ttl) {
        return handOff(cas(key, token, value, ttl, ASYNC));
    }

    @Override
    public CasResult cas(String key, CasToken token, byte[] value, Duration ttl) {
        return await(cas(key, token, value, ttl, SYNC));
    }

    private CompletableFuture<CasResult> cas(String key, CasToken token, byte[] value, Duration ttl, boolean async) {
        checkWrite(key, value, ttl);
        checkToken(key, token);
        sensors.onValueBytes(value.length);
        return guarded(CacheCommand.CAS, connection -> commands.cas(connection, key, token, value, ttl), async);
    }

    @Override
    public CompletableFuture<Long> incrAsync(String key, long delta) {
        return handOff(incr(key, delta, ASYNC));
    }

    @Override
    public long incr(String key, long delta) {
        return await(incr(key, delta, SYNC));
    }

    private CompletableFuture<Long> incr(String key, long delta, boolean async) {
        rules.checkKey(key);
        rules.checkDelta(delta);
        return guarded(CacheCommand.INCR, connection -> commands.incr(connection, key, delta), async);
    }

    @Override
    public CompletableFuture<Long> decrAsync(String key, long delta) {
        return handOff(decr(key, delta, ASYNC));
    }

    @Override
    public long decr(String key, long delta) {
        return await(decr(key, delta, SYNC));
    }

    private CompletableFuture<Long> decr(String key, long delta, boolean async) {
        rules.checkKey(key);
        rules.checkDelta(delta);
        return guarded(CacheCommand.DECR, connection -> commands.decr(connection, key, delta), async);
    }

    @Override
    public CompletableFuture<Boolean> touchAsync(String key, Duration ttl) {
        return handOff(touch(key, ttl, ASYNC));
    }

    @Override
    public boolean touch(String key, Duration ttl) {
        return await(touch(key, ttl, SYNC));
    }

    private CompletableFuture<Boolean> touch(String key, Duration ttl, boolean async) {
        rules.checkKey(key);
        rules.checkTtl(ttl);
        return write(CacheCommand.TOUCH, connection -> commands.touch(connection, key, ttl), Boolean.FALSE, async);
    }

    /**
     * The future an {@code ...Async} caller gets: completed on the completion executor, never on
     * the driver's I/O thread that completed the call, where the caller's dependent stages (and
     * what Spring runs on them: a method, then a synchronous put) would hold up every other call
     * on the connection, or wait for a reply only that thread could read. A call already complete
     * (refused input handled, a failure before sending, XMemcached, which answers on the
     * caller's thread) is handed over as is: stages registered on it run on the caller's thread.
     * The synchronous forms never come here.
     */
    private <T extends @Nullable Object> CompletableFuture<T> handOff(CompletableFuture<T> call) {
        if (call.isDone()) {
            return call;
        }
        CompletableFuture<T> handed = new CompletableFuture<>();
        call.whenComplete((result, failure) -> {
            Runnable complete = () -> {
                if (failure == null) {
                    handed.complete(result);
                }
                else {
                    handed.completeExceptionally(failure);
                }
            };
            try {
                completions.execute(complete);
            }
            catch (RejectedExecutionException ex) {
                // Our executor after close, or a caller's executor that is full: still not the I/O thread.
                ForkJoinPool.commonPool().execute(complete);
            }
        });
        return handed;
    }

    /**
     * The template's own completion executor: a few daemon threads named after the template,
     * started on first use and ended after a minute idle, so that a template called only
     * synchronously never starts one. Its queue holds at most the calls in flight, which the
     * driver's own queue bounds.
     */
    private static ExecutorService ownCompletionExecutor(String name) {
        int threads = Math.min(MAX_COMPLETION_THREADS, Math.max(2, Runtime.getRuntime().availableProcessors()));
        AtomicInteger created = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                runnable -> {
                    Thread thread = new Thread(runnable, "adaptive-cache-" + name + "-async-" + created.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    private <T extends @Nullable Object> CompletableFuture<T> guarded(CacheCommand command,
            Function<? super C, ? extends CompletionStage<T>> operation, boolean async) {
        return guarded(command, operation, null, async);
    }

    /** {@code onResult} is told of each successful result (see {@link SwappableConnectionStrategy#execute}). */
    private <T extends @Nullable Object> CompletableFuture<T> guarded(CacheCommand command,
            Function<? super C, ? extends CompletionStage<T>> operation, @Nullable Consumer<? super T> onResult, boolean async) {
        CallInterceptor interceptor = this.interceptor;
        if (interceptor == null) {
            return unintercepted(command, operation, onResult, async);
        }
        // read() and write() answer a failure as a miss or a skip in DEGRADE mode; cas, incr and decr never do.
        boolean degradable = failureMode == CacheFailureMode.DEGRADE && command != CacheCommand.CAS && command != CacheCommand.INCR
                && command != CacheCommand.DECR;
        return interceptor.intercept(this, command, async, degradable, () -> unintercepted(command, operation, onResult, async));
    }

    private <T extends @Nullable Object> CompletableFuture<T> unintercepted(CacheCommand command,
            Function<? super C, ? extends CompletionStage<T>> operation, @Nullable Consumer<? super T> onResult, boolean async) {
        // Not connected yet: the call fails at once without asking the guard, so that the breaker learns only of the server's
        // own failures and a template that has just connected is not kept waiting by a breaker opened meanwhile.
        if (guard == CallGuard.NONE || !connections.isConnected()) {
            return async ? connections.executeAsync(command, operation, onResult) : connections.execute(command, operation, onResult);
        }
        return guard.call(command, async ? () -> connections.executeAsync(command, operation, onResult)
                : () -> connections.execute(command, operation, onResult), sensors);
    }

    private <T extends @Nullable Object> CompletableFuture<T> read(CacheCommand command,
            Function<? super C, ? extends CompletionStage<T>> operation, Consumer<? super T> onResult, T miss, boolean async) {
        CompletableFuture<T> result = guarded(command, operation, onResult, async);
        return failureMode == CacheFailureMode.FAIL_FAST ? result
                : result.exceptionally(failure -> degrade(failure, degradedReads, miss));
    }

    private <T extends @Nullable Object> CompletableFuture<T> write(CacheCommand command,
            Function<? super C, ? extends CompletionStage<T>> operation, T skipped, boolean async) {
        CompletableFuture<T> result = guarded(command, operation, async);
        return failureMode == CacheFailureMode.FAIL_FAST ? result
                : result.exceptionally(failure -> degrade(failure, skippedWrites, skipped));
    }

    private static <T extends @Nullable Object> T degrade(Throwable failure, LongAdder counter, T fallback) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (!(cause instanceof CacheException) || cause instanceof InvalidCacheInputException) {
            // Not the cache failing but a bug or a misuse: hiding it would hide the defect.
            throw failure instanceof CompletionException completion ? completion : new CompletionException(cause);
        }
        counter.increment();
        return fallback;
    }

    private void checkToken(String key, CasToken token) {
        if (token == null) {
            throw new InvalidCacheInputException("A CAS token must not be null; read one with gets");
        }
        if (!token.backend().equals(backend.kind())) {
            throw new InvalidCacheInputException("This CAS token was read from " + token.backend() + "; the " + backend.kind()
                    + " template '" + name + "' cannot use it. Read a token with this template's gets");
        }
        if (!token.key().equals(key)) {
            throw new InvalidCacheInputException("This CAS token was read for key " + CacheInputRules.quote(token.key())
                    + ", not " + CacheInputRules.quote(key) + "; read a token for this key with gets");
        }
    }

    private void checkWrite(String key, byte[] value, Duration ttl) {
        rules.checkKey(key);
        rules.checkValue(value);
        rules.checkTtl(ttl);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            BackgroundConnector pending = this.connector;
            if (pending != null) {
                pending.close();
            }
            connections.close();
        }
        finally {
            try {
                guard.close();
            }
            finally {
                try {
                    backend.close();
                }
                finally {
                    // After the drain and the backend: the completions of the last calls are queued by then, and still run.
                    if (ownedCompletions != null) {
                        ownedCompletions.shutdown();
                    }
                }
            }
        }
    }

    @Override
    public String toString() {
        return "CacheTemplate[" + name + ", " + backend.kind() + " " + backend.connections().describe() + "]";
    }
}
