package io.adaptivecache.strategy;

/**
 * Opens, checks and closes one native connection of a backend: the backend's only duty toward
 * the strategies. Implementations are thread-safe.
 *
 * <p>A backend may offer two kinds of connection: thread-safe ones that many callers share
 * (SINGLE and MULTI open them with {@link #open()}), and ones that serve one caller at a time,
 * such as a blocking driver's, which only POOLED uses ({@link #openExclusive()}).
 * {@link #supportsSharing()} says whether {@link #open()} may be used at all.
 *
 * @param <C> the native connection type (thread-safe when it comes from {@link #open()})
 */
public interface ConnectionFactory<C> {

    /**
     * Opens a connection and waits until it is usable.
     * @return the connection
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached
     */
    C open();

    /**
     * Opens a connection that one caller at a time will use (a POOLED strategy's). By default
     * the same as {@link #open()}; a backend with a blocking driver opens one of those here.
     * @return the connection
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached
     */
    default C openExclusive() {
        return open();
    }

    /**
     * Checks whether the server can be reached at all, before a template that started without it
     * tries again to open its strategy. By default nothing is checked (the attempt tells); a
     * backend whose client logs each failed connection at length (the memcached drivers) checks
     * here with a plain socket, so that a long outage does not write one driver error per attempt.
     * @throws io.adaptivecache.CacheConnectionException if no server can be reached
     */
    default void checkReachable() {
    }

    /**
     * Whether connections from {@link #open()} may carry many callers' commands at once, as the
     * SHARED strategies (SINGLE, MULTI) need. A backend whose only connections are blocking ones
     * answers {@code false}, and those strategies are refused.
     * @return {@code true} if SINGLE and MULTI may be used
     */
    default boolean supportsSharing() {
        return true;
    }

    /**
     * Whether {@link #openExclusive()} gives blocking connections that do their I/O on the
     * caller's thread, which an adaptive policy may prefer for a few callers.
     * @return {@code true} for a blocking driver's connections
     */
    default boolean exclusiveConnectionsBlock() {
        return false;
    }

    /**
     * Whether a connection can still carry commands (cheap, no I/O).
     * @param connection a connection from {@link #open()} or {@link #openExclusive()}
     * @return {@code true} if usable
     */
    boolean isUsable(C connection);

    /**
     * Closes a connection and releases what it holds. Never throws.
     * @param connection a connection from {@link #open()} or {@link #openExclusive()}
     */
    void close(C connection);

    /**
     * Where connections go, for logs and error messages (never a password).
     * @return a description such as {@code redis://127.0.0.1:6379}
     */
    String describe();
}
