package io.adaptivecache.management;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.adaptivecache.call.CacheCommand;
import org.jspecify.annotations.Nullable;

/**
 * Wraps every call of a template that has one
 * (given to its builder), such as a Micrometer Observation per call. A
 * template without one does not call anything of this (its calls take the path they always took),
 * so an interceptor costs only where it is configured. It is given what describes the call at low
 * cardinality, never a key or a value.
 */
@FunctionalInterface
public interface CallInterceptor {

    /**
     * Makes the call and returns its result: {@code invocation} must be called exactly once, on
     * the calling thread; the returned future must complete as the invocation's does (with the
     * same result or failure), and may complete after whatever the interceptor does on completion.
     * @param <T> the call's result type
     * @param site the template called and its live strategy
     * @param command the command
     * @param async whether the caller used an {@code ...Async} form
     * @param degradable whether a failure of this call is answered as a miss or a skipped write
     *        ({@link io.adaptivecache.CacheFailureMode#DEGRADE} reads and writes, not cas, incr or decr)
     * @param invocation makes the call: validated input, through the guard, on the live strategy
     * @return the call's result
     */
    <T extends @Nullable Object> CompletableFuture<T> intercept(CallSite site, CacheCommand command,
            boolean async, boolean degradable, Supplier<CompletableFuture<T>> invocation);
}
