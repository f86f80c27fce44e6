package io.adaptivecache.template;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.CasToken;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.Command;
import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.management.CallSite;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.management.PendingConnection;
import io.adaptivecache.management.TemplateNodes;
import io.adaptivecache.management.TemplateStats;
import io.adaptivecache.metrics.TemplateSensors;
import io.adaptivecache.resilience.CallGuard;
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
final class DefaultCacheTemplate<C> extends CommandCacheTemplate implements ManagedCacheTemplate {

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
    private final Optional<TemplateNodes> nodes;
    private final CallGuard guard;
    private final CacheFailureMode failureMode;
    private final LongAdder degradedReads = new LongAdder();
    private final LongAdder skippedWrites = new LongAdder();
    // Where the futures handed to ...Async callers complete; owned (and shut down on close) unless given by the builder.
    private final Executor completions;
    private final @Nullable ExecutorService ownedCompletions;
    // null unless the builder was given one: the default path reads this once per call and goes on as before.
    private final @Nullable CallInterceptor interceptor;
    // Set when the template started without its server (DEGRADE); read by health and the endpoint, never per call.
    private volatile @Nullable BackgroundConnector connector;

    /**
     * Creates a template that is not started yet.
     * @param backend the backend
     * @param options everything else it is built with, resolved once by the builder
     */
    DefaultCacheTemplate(CacheBackend<C> backend, TemplateOptions options) {
        this.name = options.name();
        this.interceptor = options.interceptor();
        this.sensors.addObserver(options.observer());
        Executor completionExecutor = options.completionExecutor();
        this.ownedCompletions = completionExecutor == null ? ownCompletionExecutor(name) : null;
        this.completions = completionExecutor != null ? completionExecutor : this.ownedCompletions;
        this.guard = options.guard();
        this.failureMode = options.failureMode();
        this.backend = Objects.requireNonNull(backend, "backend");
        this.commands = backend.commands();
        this.rules = backend.inputRules();
        this.initialStrategy = options.initialStrategy();
        this.connections = new SwappableConnectionStrategy<>(backend.connections(), backend.strategies(),
                backend.exceptionTranslator(), options.drainTimeout(), options.poolCustomizer(), this.sensors, this.sensors::onStrategy,
                options.connectionLimit());
        backend.nodeSensors().ifPresent(this.sensors::judgeNodes);
        this.nodes = backend.nodeSensors().flatMap(sensors -> backend.nodeProbe().map(probe -> new TemplateNodes(sensors, probe)));
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
    public TemplateStats stats() {
        boolean started = connections.isStarted();
        boolean connected = connections.isConnected();
        BackgroundConnector pending = this.connector;
        Optional<PendingConnection> pendingConnection = pending == null || connected || closed.get() ? Optional.empty()
                : Optional.of(pending.status());
        StrategySpec active = started ? connections.activeSpec() : initialStrategy;
        StrategyStats strategy = started ? connections.stats() : StrategyStats.idle(initialStrategy);
        return new TemplateStats(backend.kind(), connections.isRunning(), connected, pendingConnection, active, strategy,
                connections.totalBorrows(), connections.totalBorrowWaitNanos(), connections.openConnections(),
                backend.strategies().pooledConnectionsBlock(), connections.drainTimeout(), guard.status(), failureMode,
                degradedReads.sum(), skippedWrites.sum(), rules);
    }

    @Override
    public SwitchReport switchStrategy(StrategySpec spec) {
        return connections.switchTo(spec);
    }

    @Override
    public Optional<TemplateNodes> nodes() {
        return nodes;
    }

    @Override
    public TemplateSensors sensors() {
        return sensors;
    }

    @Override
    public String name() {
        return name;
    }


    /** Waits for a synchronous call: bounded as a safety net only, as the client's own command timer fires first. */
    private <T extends @Nullable Object> T await(CompletableFuture<T> future) {
        try {
            return future.get(awaitNanos, TimeUnit.NANOSECONDS);
        }
        catch (ExecutionException ex) {
            Throwable cause = ex.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new CacheException("Cache call failed", cause);
        }
        catch (TimeoutException ex) {
            throw new CacheTimeoutException("No reply within " + TimeUnit.NANOSECONDS.toMillis(awaitNanos) + " ms");
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new CacheException("Interrupted while waiting for the cache", ex);
        }
    }

    @Override
    public <T> CacheOperations<T> withCodec(ValueCodec<T> codec) {
        return new CodecCacheOperations<>(this, codec);
    }

    @Override
    public void probe(String key) {
        Command.Get get = new Command.Get(key);
        rules.check(get);
        await(unintercepted(get, SYNC));
    }

    // Each command once, with where it may run: a synchronous caller may wait on a blocking pooled connection (its own
    // thread does the I/O, the fastest path for few callers); an ...Async caller never blocks, so while the live strategy
    // blocks, its calls take the async lane of shared connections.

    @Override
    public <T extends @Nullable Object> T execute(Command<T> command) {
        return await(call(command, SYNC));
    }

    @Override
    public <T extends @Nullable Object> CompletableFuture<T> executeAsync(Command<T> command) {
        return handOff(call(command, ASYNC));
    }

    /** Validates the command (nothing reaches a socket otherwise), then runs it guarded, degraded as the failure mode says. */
    private <T extends @Nullable Object> CompletableFuture<T> call(Command<T> command, boolean async) {
        rules.check(command);
        if (command instanceof Command.Cas cas) {
            checkToken(cas.key(), cas.token());
        }
        int sent = command.sentBytes();
        if (sent > 0) {
            sensors.onValueBytes(sent);
        }
        CompletableFuture<T> result = guarded(command, async);
        if (failureMode == CacheFailureMode.FAIL_FAST || !command.kind().degradable()) {
            return result;
        }
        LongAdder degraded = command.kind().isRead() ? degradedReads : skippedWrites;
        return result.exceptionally(failure -> degrade(failure, degraded, command.degraded()));
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

    private <T extends @Nullable Object> CompletableFuture<T> guarded(Command<T> command, boolean async) {
        CallInterceptor interceptor = this.interceptor;
        if (interceptor == null) {
            return unintercepted(command, async);
        }
        boolean degradable = failureMode == CacheFailureMode.DEGRADE && command.kind().degradable();
        CallSite site = new CallSite(name, backend.kind(), connections.activeSpec());
        return interceptor.intercept(site, command.kind(), async, degradable, () -> unintercepted(command, async));
    }

    private <T extends @Nullable Object> CompletableFuture<T> unintercepted(Command<T> command, boolean async) {
        // Not connected yet: the call fails at once without asking the guard, so that the breaker learns only of the server's
        // own failures and a template that has just connected is not kept waiting by a breaker opened meanwhile.
        if (guard == CallGuard.NONE || !connections.isConnected()) {
            return connections.execute(command, commands, !async);
        }
        return guard.call(command.kind(), () -> connections.execute(command, commands, !async), sensors);
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
