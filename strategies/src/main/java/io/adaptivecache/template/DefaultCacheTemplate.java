package io.adaptivecache.template;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheTimeoutException;
import io.adaptivecache.CasToken;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.ValueCodec;
import io.adaptivecache.adaptive.StrategySwitcher;
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
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ConnectionLease;
import io.adaptivecache.strategy.ConnectionLeases;
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
 * and closes. A template built with switcher options starts its adaptive switcher with it (and
 * registers it) and closes it (and removes it) first thing when it closes.
 *
 * @param <C> the backend's native connection type
 */
final class DefaultCacheTemplate<C> extends CommandCacheTemplate implements ManagedCacheTemplate, ConnectionLeases<C> {

    /** A caller that waits for the reply on its own thread: it may be served by a blocking connection. */
    private static final boolean SYNC = false;

    /** A caller of an {@code ...Async} form: it must get its future without blocking. */
    private static final boolean ASYNC = true;

    /** Most threads of a template's own completion executor: they complete futures and run the stages callers chain on them. */

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
    private final CompletionHandOff completions;
    // null unless the builder was given one: the default path reads this once per call and goes on as before.
    private final @Nullable CallInterceptor interceptor;
    // Set when the template started without its server (DEGRADE); read by health and the endpoint, never per call.
    private volatile @Nullable BackgroundConnector connector;
    private final int connectionLimit;
    private final OwnedSwitcher switcher;

    /**
     * Creates a template that is not started yet.
     * @param backend the backend
     * @param options everything else it is built with, resolved once by the builder
     */
    DefaultCacheTemplate(CacheBackend<C> backend, TemplateOptions options) {
        this.name = options.name();
        this.interceptor = options.interceptor();
        this.sensors.addObserver(options.observer());
        this.completions = new CompletionHandOff(name, options.completionExecutor());
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
        this.connectionLimit = options.connectionLimit();
        this.switcher = new OwnedSwitcher(options.switcher(), options.switchers());
    }

    /** Whether this template makes its own switcher when it starts. */
    boolean hasOwnSwitcher() {
        return switcher.configured();
    }

    @Override
    public void start() {
        // Made (its policy too) and registered before anything is opened: a policy that cannot be made, or a name that is
        // taken, fails the start without a connection to close.
        StrategySwitcher made = closed.get() ? null
                : switcher.make(this, backend.strategies().pooledConnectionsBlock(), backend.strategies().threadPerSharedConnection(),
                        connectionLimit);
        try {
            connect();
        }
        catch (RuntimeException ex) {
            if (made != null) {
                switcher.drop(made);
            }
            throw ex;
        }
        if (made != null) {
            switcher.start(made);
        }
    }

    /** Opens the initial strategy; in DEGRADE mode a server that cannot be reached is waited out in the background. */
    private void connect() {
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
                backend.strategies().pooledConnectionsBlock(), backend.strategies().threadPerSharedConnection(),
                connections.drainTimeout(), guard.status(), failureMode, degradedReads.sum(), skippedWrites.sum(), rules);
    }

    @Override
    public SwitchReport switchStrategy(StrategySpec spec) {
        return connections.switchTo(spec);
    }

    /** For bridges that run their own commands; bypasses the guard, the interceptor and the failure mode, as its caller's commands are not this API's. */
    @Override
    public ConnectionLease<C> lease() {
        // The bridges' callers wait for their replies, as a synchronous template caller does.
        return connections.lease(true);
    }

    @Override
    public ConnectionFactory<C> connectionFactory() {
        return backend.connections();
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
            throw new CacheTimeoutException("No reply within " + TimeUnit.NANOSECONDS.toMillis(awaitNanos) + " ms", null);
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
        return completions.handOff(call(command, ASYNC));
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
        if (failureMode == CacheFailureMode.FAIL_FAST || !command.kind().degradable()
                || (result.isDone() && !result.isCompletedExceptionally())) {
            return result; // nothing to degrade: no stage for it (a blocking driver's calls come back done)
        }
        LongAdder degraded = command.kind().isRead() ? degradedReads : skippedWrites;
        return result.exceptionally(failure -> degrade(failure, degraded, command.degraded()));
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
            switcher.close();
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
                    completions.shutdown();
                }
            }
        }
    }

    @Override
    public String toString() {
        return "CacheTemplate[" + name + ", " + backend.kind() + " " + backend.connections().describe() + "]";
    }
}
