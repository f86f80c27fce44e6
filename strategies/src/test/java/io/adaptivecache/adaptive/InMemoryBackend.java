package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.CommandHandler;
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ExceptionTranslator;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.template.AbstractCacheTemplateBuilder;

/**
 * A backend kept in a map, whose connections count their opens and closes, and whose gets can
 * be held pending to test draining. Only get and set are implemented: what switcher tests need.
 */
public final class InMemoryBackend implements CacheBackend<InMemoryBackend.Connection>, CommandHandler<InMemoryBackend.Connection>,
        ConnectionFactory<InMemoryBackend.Connection> {

    final Map<String, byte[]> data = new ConcurrentHashMap<>();
    final List<Connection> opened = new CopyOnWriteArrayList<>();
    final AtomicBoolean failOpens = new AtomicBoolean();
    /** Opens that still succeed before every further one is refused, as a server at its client limit does; negative: no limit. */
    final AtomicInteger opensLeft = new AtomicInteger(-1);
    /** The next get answers with this future instead of the map, once: a test completes it when it wants. */
    public final AtomicReference<CompletableFuture<byte[]>> holdNextGet = new AtomicReference<>();
    private final AtomicInteger ids = new AtomicInteger();

    static final class Connection {

        final int id;
        final AtomicBoolean closed = new AtomicBoolean();

        Connection(int id) {
            this.id = id;
        }
    }

    /**
     * A template over this backend, built as a backend's builder builds one: the implementation is
     * not API, so a test outside its package gets it through the builder base like any backend.
     */
    public ManagedCacheTemplate template(String name, StrategySpec strategy, Duration drainTimeout) {
        return new TemplateBuilder(this).name(name).strategy(strategy).drainTimeout(drainTimeout).build();
    }

    /** The builder a backend of its own would have: only the backend to build is its own. */
    private static final class TemplateBuilder extends AbstractCacheTemplateBuilder<TemplateBuilder> {

        private final InMemoryBackend backend;

        TemplateBuilder(InMemoryBackend backend) {
            super("memory");
            this.backend = backend;
        }

        @Override
        protected CacheBackend<Connection> backend() {
            return this.backend;
        }
    }

    long openCount() {
        return this.opened.stream().filter(connection -> !connection.closed.get()).count();
    }

    @Override
    public Connection open() {
        if (this.failOpens.get()) {
            throw new CacheConnectionException("memory server is down");
        }
        if (this.opensLeft.get() >= 0 && this.opensLeft.getAndDecrement() <= 0) {
            throw new CacheConnectionException("memory server: max number of clients reached");
        }
        Connection connection = new Connection(this.ids.incrementAndGet());
        this.opened.add(connection);
        return connection;
    }

    @Override
    public boolean isUsable(Connection connection) {
        return !connection.closed.get();
    }

    @Override
    public void close(Connection connection) {
        connection.closed.set(true);
    }

    @Override
    public String describe() {
        return "memory";
    }

    @Override
    public String kind() {
        return "memory";
    }

    @Override
    public ConnectionFactory<Connection> connections() {
        return this;
    }

    @Override
    public CacheCommands<Connection> commands() {
        return CacheCommands.of(this);
    }

    @Override
    public CacheInputRules inputRules() {
        return CacheInputRules.builder("memory").build();
    }

    @Override
    public ExceptionTranslator exceptionTranslator() {
        return failure -> new CacheException(failure.getMessage(), failure);
    }

    @Override
    public Duration commandTimeout() {
        return Duration.ofSeconds(5);
    }

    @Override
    public void close() {
    }

    private static void use(Connection connection) {
        if (connection.closed.get()) {
            throw new IllegalStateException("used after close");
        }
    }

    @Override
    public CompletionStage<byte[]> get(Connection connection, String key) {
        use(connection);
        CompletableFuture<byte[]> held = this.holdNextGet.getAndSet(null);
        return held != null ? held : CompletableFuture.completedFuture(this.data.get(key));
    }

    @Override
    public CompletionStage<Void> set(Connection connection, String key, byte[] value, Duration ttl) {
        use(connection);
        this.data.put(key, value);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(Connection connection, List<String> keys) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> add(Connection connection, String key, byte[] value, Duration ttl) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> replace(Connection connection, String key, byte[] value, Duration ttl) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> exists(Connection connection, String key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> delete(Connection connection, String key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<CasValue<byte[]>> gets(Connection connection, String key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<CasResult> cas(Connection connection, String key, CasToken token, byte[] value, Duration ttl) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Long> incr(Connection connection, String key, long delta) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Long> decr(Connection connection, String key, long delta) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> touch(Connection connection, String key, Duration ttl) {
        throw new UnsupportedOperationException();
    }
}
