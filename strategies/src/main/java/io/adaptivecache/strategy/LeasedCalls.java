package io.adaptivecache.strategy;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import io.adaptivecache.CacheException;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.Command;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.call.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * One command on a leased connection, from the lease to the reply: issues it, releases the lease
 * when the reply (or failure) arrives, translates failures into {@link CacheException}s and tells
 * the observer of the call once, with its latency from when the caller asked for a connection.
 * What {@link SwappableConnectionStrategy} does per call, apart from choosing the connection.
 *
 * @param <C> the native connection type
 */
final class LeasedCalls<C> {

    private final CallObserver observer;
    private final ExceptionTranslator translator;

    LeasedCalls(CallObserver observer, ExceptionTranslator translator) {
        this.observer = Objects.requireNonNull(observer, "observer");
        this.translator = Objects.requireNonNull(translator, "translator");
    }

    /**
     * Issues the command on the lease's connection.
     * @param started when the caller asked for a connection, from {@link System#nanoTime()}
     * @param callerMayBlock whether the caller waits for the reply on its own thread
     */
    <T extends @Nullable Object> CompletableFuture<T> run(Command<T> command, CacheCommands<C> commands, ConnectionLease<C> lease,
            boolean callerMayBlock, long started) {
        CacheCommand kind = command.kind();
        CompletionStage<T> stage;
        try {
            stage = commands.execute(lease.connection(), command);
        }
        catch (RuntimeException | Error ex) {
            lease.release();
            return failed(kind, started, ex);
        }
        CompletableFuture<T> future = stage.toCompletableFuture();
        if (callerMayBlock && future.isDone() && !future.isCompletedExceptionally()) {
            // A blocking driver (Jedis) answered a caller that waits for it: settle it here, without the stage and the closure
            // an asynchronous reply needs.
            lease.release();
            T result = future.join();
            this.observer.onCall(kind, CallOutcome.SUCCESS, System.nanoTime() - started);
            this.observer.onReply(command, result);
            return future;
        }
        return future.handle((result, failure) -> {
            lease.release();
            if (failure != null) {
                CacheException translated = translate(failure);
                this.observer.onCall(kind, CallOutcome.of(translated), System.nanoTime() - started);
                throw translated;
            }
            this.observer.onCall(kind, CallOutcome.SUCCESS, System.nanoTime() - started);
            this.observer.onReply(command, result);
            return result;
        });
    }

    /** A call that failed before its command was issued (no connection to be had), told to the observer. */
    <T extends @Nullable Object> CompletableFuture<T> failed(CacheCommand command, long started, Throwable failure) {
        CacheException translated = translate(failure);
        this.observer.onCall(command, CallOutcome.of(translated), System.nanoTime() - started);
        return CompletableFuture.failedFuture(translated);
    }

    /** The cache exception for a failure: unwrapped from the future's wrappers, translated unless it is one already. */
    CacheException translate(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause instanceof CacheException cacheException ? cacheException : translator.translate(cause);
    }
}
