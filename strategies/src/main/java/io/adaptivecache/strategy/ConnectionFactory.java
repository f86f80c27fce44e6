package io.adaptivecache.strategy;

/**
 * Opens, checks and closes one native connection of a backend: the backend's only duty toward
 * the strategies. Implementations are thread-safe.
 *
 * @param <C> the native connection type (a thread-safe one for SHARED strategies)
 */
public interface ConnectionFactory<C> {

    /**
     * Opens a connection and waits until it is usable.
     * @return the connection
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached
     */
    C open();

    /**
     * Whether a connection can still carry commands (cheap, no I/O).
     * @param connection a connection from {@link #open()}
     * @return {@code true} if usable
     */
    boolean isUsable(C connection);

    /**
     * Closes a connection and releases what it holds. Never throws.
     * @param connection a connection from {@link #open()}
     */
    void close(C connection);

    /**
     * Where connections go, for logs and error messages (never a password).
     * @return a description such as {@code redis://127.0.0.1:6379}
     */
    String describe();
}
