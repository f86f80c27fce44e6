package io.adaptivecache.backend;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import io.adaptivecache.CacheException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.metrics.NodeBreaker;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.strategy.ExceptionTranslator;
import org.jspecify.annotations.Nullable;

/**
 * Commands that record each single-key call against the node serving its key, around another
 * backend's commands. Multi-key calls ({@link #getAll}) span nodes and are not attributed, but
 * are refused while a node they need has its breaker open.
 * The latency recorded is the node's: from issuing the command to its reply, without any wait
 * for a pooled connection.
 *
 * <p>Each node's {@link NodeBreaker} guards its calls: while it is open, a call for the node's
 * keys fails at once with a {@link CacheRejectedException} (a miss under
 * {@link io.adaptivecache.CacheFailureMode#DEGRADE}) instead of waiting out the timeout, so the
 * callers of the other nodes keep their throughput. A failure names the node (and, on a
 * cluster, the slot) the call went to.
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
    public CompletionStage<byte @Nullable []> get(C connection, String key) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<byte @Nullable []> stage;
        try {
            stage = this.commands.get(connection, key);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<Map<String, byte[]>> getAll(C connection, List<String> keys) {
        // Refused whole while one of its nodes' breakers is open: it would wait out that node's timeout.
        for (String key : keys) {
            NodeSensor node = this.locator.locate(connection, key);
            if (node.breaker().isOpen()) {
                return refused(connection, key, node);
            }
        }
        return this.commands.getAll(connection, keys);
    }

    @Override
    public CompletionStage<Void> set(C connection, String key, byte[] value, Duration ttl) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<Void> stage;
        try {
            stage = this.commands.set(connection, key, value, ttl);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<Boolean> add(C connection, String key, byte[] value, Duration ttl) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<Boolean> stage;
        try {
            stage = this.commands.add(connection, key, value, ttl);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<Boolean> replace(C connection, String key, byte[] value, Duration ttl) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<Boolean> stage;
        try {
            stage = this.commands.replace(connection, key, value, ttl);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<Boolean> delete(C connection, String key) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<Boolean> stage;
        try {
            stage = this.commands.delete(connection, key);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<@Nullable CasValue<byte[]>> gets(C connection, String key) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<@Nullable CasValue<byte[]>> stage;
        try {
            stage = this.commands.gets(connection, key);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<CasResult> cas(C connection, String key, CasToken token, byte[] value, Duration ttl) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<CasResult> stage;
        try {
            stage = this.commands.cas(connection, key, token, value, ttl);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<Long> incr(C connection, String key, long delta) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<Long> stage;
        try {
            stage = this.commands.incr(connection, key, delta);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<Long> decr(C connection, String key, long delta) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<Long> stage;
        try {
            stage = this.commands.decr(connection, key, delta);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    @Override
    public CompletionStage<Boolean> touch(C connection, String key, Duration ttl) {
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<Boolean> stage;
        try {
            stage = this.commands.touch(connection, key, ttl);
        }
        catch (RuntimeException ex) {
            return observe(connection, key, node, permit, started, CompletableFuture.failedFuture(ex));
        }
        return observe(connection, key, node, permit, started, stage);
    }

    private <T extends @Nullable Object> CompletionStage<T> observe(C connection, String key, NodeSensor node, int permit,
            long started, CompletionStage<T> stage) {
        return stage.handle((result, failure) -> {
            long latency = System.nanoTime() - started;
            if (failure == null) {
                node.record(CallOutcome.SUCCESS, latency);
                node.breaker().onOutcome(CallOutcome.SUCCESS, permit);
                return result;
            }
            CacheException translated = translate(unwrap(failure), connection, key, node);
            CallOutcome outcome = CallOutcome.of(translated);
            node.record(outcome, latency);
            node.breaker().onOutcome(outcome, permit);
            if (outcome == CallOutcome.TIMEOUT || outcome == CallOutcome.CONNECTION_FAILURE) {
                this.locator.onNodeFailure(connection, key, node);
            }
            throw new CompletionException(translated);
        });
    }

    /** A call the node's breaker refused: not sent, counted against the node, and a reason to read the topology again. */
    private <T extends @Nullable Object> CompletionStage<T> refused(C connection, String key, NodeSensor node) {
        node.record(CallOutcome.REJECTED, 0);
        this.locator.onNodeFailure(connection, key, node);
        return CompletableFuture.failedFuture(new CacheRejectedException("Redis Cluster " + this.locator.describe(connection, key, node)
                + " did not answer its last calls, so its circuit breaker refuses calls for a moment; the call was not sent"));
    }

    private CacheException translate(Throwable cause, C connection, String key, NodeSensor node) {
        if (cause instanceof CacheException cacheException) {
            return cacheException;
        }
        if (this.exceptionTranslator instanceof NodeExceptionTranslator nodes) {
            return nodes.translate(cause, this.locator.describe(connection, key, node));
        }
        return this.exceptionTranslator.translate(cause);
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
