package io.adaptivecache.call;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * Runs a {@link Command} given as a value, through everything a template puts in front of the
 * wire (validation, guard, strategy, near cache). Every template of this library is one, and its
 * named methods ({@code get}, {@code set}, ...) are these two with the command built for you; a
 * layer that wraps a template (the near cache) passes commands on through them without naming
 * each.
 */
public interface CommandExecutor {

    /**
     * Runs a command and waits for its reply on the calling thread.
     * @param command the command
     * @param <T> its result
     * @return the reply
     * @throws io.adaptivecache.CacheException if the call fails
     * @throws io.adaptivecache.InvalidCacheInputException if the command carries input the backend refuses (nothing is sent)
     */
    <T extends @Nullable Object> T execute(Command<T> command);

    /**
     * Runs a command without blocking.
     * @param command the command
     * @param <T> its result
     * @return the reply, completed off the driver's I/O threads
     * @throws io.adaptivecache.InvalidCacheInputException if the command carries input the backend refuses (nothing is sent)
     */
    <T extends @Nullable Object> CompletableFuture<T> executeAsync(Command<T> command);
}
