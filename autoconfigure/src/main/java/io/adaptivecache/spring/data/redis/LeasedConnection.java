package io.adaptivecache.spring.data.redis;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.redis.RedisConnectionLeases;
import io.adaptivecache.strategy.ConnectionLease;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisAsyncCommandsImpl;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;

/**
 * The template's live strategy seen as one shared Lettuce connection with {@code byte[]} keys and
 * values, as Spring Data Redis's {@code LettuceConnection} takes its shared native connection:
 * every command dispatched here leases the connection the live strategy chooses (SINGLE its one,
 * MULTI the next, POOLED one borrowed), is written there with its own codec, and gives the lease
 * back when its reply arrives. So a switch drains these commands exactly as it drains the
 * template's own calls, and a Spring Data connection held open (a listener container's) holds no
 * lease. Each command is told to the template's sensors (latency, outcome), as a template call is.
 *
 * <p>Spring Data sends what must not share a connection (transactions, pipelines, blocking
 * commands, subscriptions) to dedicated connections instead; what would change a shared
 * connection's state for every caller (auto-flush off, a listener, a timeout) is refused here.
 */
final class LeasedConnection implements StatefulRedisConnection<byte[], byte[]> {

    private final RedisConnectionLeases leases;
    private final CallObserver observer;
    private final FirstUseStart firstUse;
    private final Duration timeout;
    private final RedisAsyncCommandsImpl<byte[], byte[]> async;
    private final RedisCommands<byte[], byte[]> sync;

    LeasedConnection(RedisConnectionLeases leases, CallObserver observer, FirstUseStart firstUse) {
        this.leases = leases;
        this.observer = observer;
        this.firstUse = firstUse;
        this.timeout = leases.commandTimeout();
        this.async = new RedisAsyncCommandsImpl<>(this, ByteArrayCodec.INSTANCE, ClientOptions.DEFAULT_JSON_PARSER);
        this.sync = syncCommands(this.async, this.timeout);
    }

    @Override
    @SuppressWarnings({ "unchecked", "rawtypes" })
    public <T> RedisCommand<byte[], byte[], T> dispatch(RedisCommand<byte[], byte[], T> command) {
        // The async API hands an AsyncCommand (a future); anything else is wrapped so that its completion can be followed.
        AsyncCommand<byte[], byte[], T> tracked = command instanceof AsyncCommand<byte[], byte[], T> future ? future
                : new AsyncCommand<>(command);
        CacheCommand kind = kind(tracked);
        long started = System.nanoTime();
        ConnectionLease<StatefulRedisConnection<String, byte[]>> lease;
        try {
            lease = lease();
        }
        catch (RuntimeException ex) {
            this.observer.onCall(kind, CallOutcome.of(ex), System.nanoTime() - started);
            // Spring Data reads a RedisConnectionException as a connection failure (RedisConnectionFailureException): no
            // connection to lease, or a template that could not be started (a server down, a closed template).
            tracked.completeExceptionally(new RedisConnectionException(ex.getMessage(), ex));
            return tracked;
        }
        tracked.whenComplete((result, failure) -> {
            lease.release();
            this.observer.onCall(kind, failure == null ? CallOutcome.SUCCESS : outcome(failure), System.nanoTime() - started);
        });
        try {
            // The command carries its own codec and output: the connection's String codec never touches it.
            ((StatefulRedisConnection) lease.connection()).dispatch(tracked);
        }
        catch (RuntimeException ex) {
            // Completing it releases the lease and tells the sensors, as a reply would.
            tracked.completeExceptionally(ex);
        }
        return tracked;
    }

    @Override
    public java.util.Collection<RedisCommand<byte[], byte[], ?>> dispatch(Collection<? extends RedisCommand<byte[], byte[], ?>> commands) {
        List<RedisCommand<byte[], byte[], ?>> sent = new ArrayList<>(commands.size());
        for (RedisCommand<byte[], byte[], ?> command : commands) {
            sent.add(dispatch(command));
        }
        return sent;
    }

    /** The live strategy's connection for one command, the template started first if nothing has started it yet. */
    private ConnectionLease<StatefulRedisConnection<String, byte[]>> lease() {
        this.firstUse.ensureStarted();
        return this.leases.lease();
    }

    /** The cache command a Redis command is the same as, for the sensors' tags; {@link CacheCommand#OTHER} for the rest. */
    static CacheCommand kind(RedisCommand<?, ?, ?> command) {
        if (!(command.getType() instanceof CommandType type)) {
            return CacheCommand.OTHER;
        }
        return switch (type) {
            case GET -> CacheCommand.GET;
            case MGET -> CacheCommand.GET_ALL;
            case SET, SETEX, PSETEX -> CacheCommand.SET;
            case SETNX -> CacheCommand.ADD;
            case DEL, UNLINK -> CacheCommand.DELETE;
            case EXISTS -> CacheCommand.EXISTS;
            case INCR, INCRBY -> CacheCommand.INCR;
            case DECR, DECRBY -> CacheCommand.DECR;
            case EXPIRE, PEXPIRE -> CacheCommand.TOUCH;
            default -> CacheCommand.OTHER;
        };
    }

    private static CallOutcome outcome(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RedisCommandTimeoutException) {
            return CallOutcome.TIMEOUT;
        }
        if (cause instanceof RedisCommandExecutionException) {
            return CallOutcome.SERVER_ERROR;
        }
        if (cause instanceof RedisConnectionException) {
            return CallOutcome.CONNECTION_FAILURE;
        }
        // A cache exception (a failed lease) as the template tells it; anything else (a cancelled wait, a closed connection) is a failure.
        return CallOutcome.of(cause);
    }

    /**
     * The synchronous API, as Lettuce builds its own: each method runs its asynchronous twin and
     * waits for the reply up to the command timeout. Spring Data uses it for a few scans.
     */
    @SuppressWarnings("unchecked")
    private static RedisCommands<byte[], byte[]> syncCommands(RedisAsyncCommands<byte[], byte[]> async, Duration timeout) {
        long timeoutNanos = timeout.toNanos();
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "Synchronous commands over the template's connections";
                };
            }
            Object result;
            try {
                Method twin = async.getClass().getMethod(method.getName(), method.getParameterTypes());
                result = twin.invoke(async, args);
            }
            catch (InvocationTargetException ex) {
                throw ex.getCause();
            }
            if (result instanceof RedisFuture<?> future) {
                return LettuceFutures.awaitOrCancel(future, timeoutNanos, TimeUnit.NANOSECONDS);
            }
            return result;
        };
        return (RedisCommands<byte[], byte[]>) Proxy.newProxyInstance(LeasedConnection.class.getClassLoader(),
                new Class<?>[] { RedisCommands.class }, handler);
    }

    @Override
    public RedisAsyncCommands<byte[], byte[]> async() {
        return this.async;
    }

    @Override
    public RedisCommands<byte[], byte[]> sync() {
        return this.sync;
    }

    /** Not offered: the factory is not a reactive one. */
    @Override
    public RedisReactiveCommands<byte[], byte[]> reactive() {
        throw new UnsupportedOperationException("The reactive API is not offered over " + this.leases.describe());
    }

    @Override
    public boolean isMulti() {
        // MULTI never reaches a shared connection: Spring Data runs transactions on a dedicated one.
        return false;
    }

    @Override
    public void addListener(PushListener listener) {
        throw refused("push listeners");
    }

    @Override
    public void removeListener(PushListener listener) {
        throw refused("push listeners");
    }

    @Override
    public void addListener(RedisConnectionStateListener listener) {
        throw refused("connection state listeners");
    }

    @Override
    public void removeListener(RedisConnectionStateListener listener) {
        throw refused("connection state listeners");
    }

    @Override
    public void setTimeout(Duration timeout) {
        throw refused("a timeout of its own (the template's command timeout applies)");
    }

    @Override
    public Duration getTimeout() {
        return this.timeout;
    }

    @Override
    public void close() {
        // The template owns the connections behind this view and closes them with itself.
    }

    @Override
    public CompletableFuture<Void> closeAsync() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public ClientOptions getOptions() {
        return fromALease(StatefulRedisConnection::getOptions);
    }

    @Override
    public ClientResources getResources() {
        return fromALease(StatefulRedisConnection::getResources);
    }

    /** What one of the live strategy's connections says, read under a lease: every connection of the template has the same. */
    private <T> T fromALease(Function<StatefulRedisConnection<String, byte[]>, T> read) {
        ConnectionLease<StatefulRedisConnection<String, byte[]>> lease = lease();
        try {
            return read.apply(lease.connection());
        }
        finally {
            lease.release();
        }
    }

    @Override
    public void setAutoFlushCommands(boolean autoFlush) {
        if (!autoFlush) {
            // It would hold every other caller's commands back on a shared connection; Spring Data pipelines on a dedicated one.
            throw refused("turning auto-flush off");
        }
    }

    @Override
    public void flushCommands() {
        // Every command is flushed as it is dispatched.
    }

    @Override
    public RedisCodec<byte[], byte[]> getCodec() {
        return ByteArrayCodec.INSTANCE;
    }

    private UnsupportedOperationException refused(String what) {
        return new UnsupportedOperationException("The template's shared connections to " + this.leases.describe() + " do not take "
                + what);
    }

    @Override
    public String toString() {
        return "Leased connections to " + this.leases.describe();
    }
}
