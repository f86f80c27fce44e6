package io.adaptivecache.strategy;

import java.util.ArrayList;
import java.util.List;

/**
 * Opens, checks and closes one native connection of a backend. Implementations are thread-safe.
 * Which strategy uses which factory is the {@link StrategyFactory}'s business: a connection
 * opened here may be shared by concurrent callers (SINGLE, MULTI) or lent to one caller at a time
 * (POOLED), as the strategy factory decides.
 *
 * @param <C> the native connection type
 */
public interface ConnectionFactory<C> {

    /**
     * Opens a connection and waits until it is usable.
     * @return the connection
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached
     */
    C open();

    /**
     * Opens the connections of one strategy that shares them among all its callers (SINGLE, MULTI),
     * together, so that a factory whose connections run on a few I/O threads can place them apart:
     * Lettuce's puts each on an I/O thread of its own while there are enough threads, whatever else
     * opens connections meanwhile, where opening them one by one would leave that to chance. By
     * default they are opened one after the other with {@link #open()}. If one cannot be opened,
     * those already opened are closed.
     * @param count how many, at least 1
     * @return the connections, in the order opened
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached
     */
    default List<C> openShared(int count) {
        List<C> opened = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                opened.add(open());
            }
        }
        catch (RuntimeException ex) {
            opened.forEach(this::close);
            throw ex;
        }
        return opened;
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
     * Whether each connection runs an I/O thread of its own (the memcached drivers: a spymemcached
     * or XMemcached client per connection), rather than sharing a few I/O threads among all
     * connections (Lettuce's event loops). MULTI(N) then costs N threads that compete with the
     * callers for the cores, and fewer connections may serve more.
     * @return {@code false} unless each connection has a thread of its own
     */
    default boolean threadPerConnection() {
        return false;
    }

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
