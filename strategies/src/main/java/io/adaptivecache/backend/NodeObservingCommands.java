package io.adaptivecache.backend;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.CacheException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.call.Command;
import io.adaptivecache.metrics.NodeBreaker;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.strategy.ExceptionTranslator;
import org.jspecify.annotations.Nullable;

/**
 * Commands that record each single-key call against the node serving its key, around another
 * backend's commands. Multi-key calls ({@link Command.GetAll}) span nodes and are not attributed, but
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
    public <T extends @Nullable Object> CompletionStage<T> execute(C connection, Command<T> command) {
        if (!(command instanceof Command.Keyed<T> keyed)) {
            return spanningNodes(connection, (Command.GetAll) command);
        }
        String key = keyed.key();
        NodeSensor node = this.locator.locate(connection, key);
        int permit = node.breaker().acquire();
        if (permit == NodeBreaker.REFUSED) {
            return refused(connection, key, node);
        }
        long started = System.nanoTime();
        CompletionStage<T> stage;
        try {
            stage = this.commands.execute(connection, command);
        }
        catch (RuntimeException ex) {
            stage = CompletableFuture.failedFuture(ex);
        }
        return observe(connection, key, node, permit, started, stage);
    }

    /** A command on keys of several nodes: refused whole while one of its nodes' breakers is open, as it would wait out that node's timeout. */
    @SuppressWarnings("unchecked")
    private <T extends @Nullable Object> CompletionStage<T> spanningNodes(C connection, Command.GetAll command) {
        for (String key : command.keys()) {
            NodeSensor node = this.locator.locate(connection, key);
            if (node.breaker().isOpen()) {
                return refused(connection, key, node);
            }
        }
        return (CompletionStage<T>) this.commands.execute(connection, command);
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
                + " did not answer its last calls, so its circuit breaker refuses calls for a moment; the call was not sent", null));
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
