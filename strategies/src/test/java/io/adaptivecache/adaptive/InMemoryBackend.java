package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

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
import io.adaptivecache.strategy.FakeConnections;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.template.AbstractCacheTemplateBuilder;

/**
 * A backend kept in a map, whose connections are {@link FakeConnections}' (counted as they open
 * and close, refused when a test says so), and whose gets can be held pending to test draining.
 * Only get and set are implemented: what switcher tests need.
 */
public final class InMemoryBackend extends FakeConnections
        implements CacheBackend<FakeConnections.Connection>, CommandHandler<FakeConnections.Connection> {

    final Map<String, byte[]> data = new ConcurrentHashMap<>();
    /** The next get answers with this future instead of the map, once: a test completes it when it wants. */
    public final AtomicReference<CompletableFuture<byte[]>> holdNextGet = new AtomicReference<>();

    /**
     * A template over this backend, built as a backend's builder builds one: the implementation is
     * not API, so a test outside its package gets it through the builder base like any backend.
     */
    public ManagedCacheTemplate template(String name, StrategySpec strategy, Duration drainTimeout) {
        return new TemplateBuilder(this).name(name).strategy(strategy).drainTimeout(drainTimeout).build();
    }

    /**
     * A builder of templates over this backend, for tests that set more than the name, strategy
     * and drain timeout (an adaptive switcher, a connection limit).
     */
    public AbstractCacheTemplateBuilder<?> builder() {
        return new TemplateBuilder(this);
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

    @Override
    public CompletionStage<byte[]> get(Connection connection, String key) {
        connection.use();
        CompletableFuture<byte[]> held = this.holdNextGet.getAndSet(null);
        return held != null ? held : CompletableFuture.completedFuture(this.data.get(key));
    }

    @Override
    public CompletionStage<Void> set(Connection connection, String key, byte[] value, Duration ttl) {
        connection.use();
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
