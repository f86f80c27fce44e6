package io.adaptivecache.resilience;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.call.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * Stands between a template's callers and its connections: may refuse a call (an open circuit,
 * a full bulkhead), may run it again (a retried read), and hears how each attempt ended. Called
 * on the hot path, so implementations take no lock they can avoid and do not log per call.
 */
public interface CallGuard extends AutoCloseable {

    /** Lets every call through, once. */
    CallGuard NONE = new CallGuard() {

        @Override
        public <T extends @Nullable Object> CompletableFuture<T> call(CacheCommand command,
                Supplier<CompletableFuture<T>> attempt, CallObserver rejections) {
            return attempt.get();
        }

        @Override
        public GuardStatus status() {
            return GuardStatus.UNGUARDED;
        }

        @Override
        public void close() {
        }
    };

    /**
     * Runs a call under this guard.
     * @param command which command, to tell reads (which may be retried) from writes
     * @param attempt issues the call once; never throws, reports failure in its future
     * @param rejections told of every call this guard refuses, with {@link CallOutcome#REJECTED}
     * @param <T> the result type
     * @return the call's result, or a future failed with {@link CacheRejectedException} if the
     *     call was not attempted
     */
    <T extends @Nullable Object> CompletableFuture<T> call(CacheCommand command, Supplier<CompletableFuture<T>> attempt,
            CallObserver rejections);

    /**
     * What the guard looks like now, for health and the Actuator endpoint.
     * @return the status
     */
    GuardStatus status();

    /** Releases what the guard owns (a retry scheduler); the guard must not be called after. */
    @Override
    void close();
}
