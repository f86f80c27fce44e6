package io.adaptivecache.command;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.metrics.CallOutcome;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.strategy.ExceptionTranslator;

/**
 * Commands that record each single-key call against the node serving its key, around another
 * backend's commands. Multi-key calls ({@link #getAll}) span nodes and are not attributed.
 * The latency recorded is the node's: from issuing the command to its reply, without any wait
 * for a pooled connection.
 *
 * @param <C> the native connection type
 */
public final class NodeObservingCommands<C> implements CacheCommands<C> {

    private final CacheCommands<C> commands;
    private final NodeLocator<C> locator;
    private final ExceptionTranslator exceptionTranslator;

    /**
     * Wraps commands.
     * @param commands the commands that do the work
     * @param locator finds the node of a key
     * @param exceptionTranslator classifies failures (timeout, connection, ...)
     */
    public NodeObservingCommands(CacheCommands<C> commands, NodeLocator<C> locator, ExceptionTranslator exceptionTranslator) {
        this.commands = Objects.requireNonNull(commands, "commands");
        this.locator = Objects.requireNonNull(locator, "locator");
        this.exceptionTranslator = Objects.requireNonNull(exceptionTranslator, "exceptionTranslator");
    }

    @Override
    public CompletionStage<byte[]> get(C connection, String key) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.get(connection, key));
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(C connection, List<String> keys) {
        return this.commands.getAll(connection, keys);
    }

    @Override
    public CompletionStage<Void> set(C connection, String key, byte[] value, Duration ttl) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.set(connection, key, value, ttl));
    }

    @Override
    public CompletionStage<Boolean> add(C connection, String key, byte[] value, Duration ttl) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.add(connection, key, value, ttl));
    }

    @Override
    public CompletionStage<Boolean> replace(C connection, String key, byte[] value, Duration ttl) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.replace(connection, key, value, ttl));
    }

    @Override
    public CompletionStage<Boolean> delete(C connection, String key) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.delete(connection, key));
    }

    @Override
    public CompletionStage<CasValue<byte[]>> gets(C connection, String key) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.gets(connection, key));
    }

    @Override
    public CompletionStage<CasResult> cas(C connection, String key, CasToken token, byte[] value, Duration ttl) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.cas(connection, key, token, value, ttl));
    }

    @Override
    public CompletionStage<Long> incr(C connection, String key, long delta) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.incr(connection, key, delta));
    }

    @Override
    public CompletionStage<Long> decr(C connection, String key, long delta) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.decr(connection, key, delta));
    }

    @Override
    public CompletionStage<Boolean> touch(C connection, String key, Duration ttl) {
        long started = System.nanoTime();
        return observe(this.locator.locate(connection, key), started, this.commands.touch(connection, key, ttl));
    }

    private <T> CompletionStage<T> observe(NodeSensor node, long started, CompletionStage<T> stage) {
        return stage.whenComplete((result, failure) -> node.record(failure == null ? CallOutcome.SUCCESS : outcomeOf(failure),
                System.nanoTime() - started));
    }

    private CallOutcome outcomeOf(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return CallOutcome.of(this.exceptionTranslator.translate(cause));
    }
}
