package io.adaptivecache.strategy;

/**
 * The right to run commands on one native connection until {@link #release()} is called. A
 * lease is released exactly once, when the command's result has arrived (not when the calling
 * method returns), which is what lets a retired strategy know when it is safe to close.
 *
 * @param <C> the native connection type
 */
public interface ConnectionLease<C> {

    /**
     * The connection to run commands on.
     * @return the connection
     */
    C connection();

    /** Gives the connection back; call exactly once. */
    void release();
}
