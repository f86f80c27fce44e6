package io.adaptivecache.call;

import java.util.Locale;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CachePoolExhaustedException;
import io.adaptivecache.CacheRejectedException;
import io.adaptivecache.CacheServerException;
import io.adaptivecache.CacheTimeoutException;

/** How a call ended, as a low-cardinality metrics tag. */
public enum CallOutcome {

    /** The command completed. */
    SUCCESS,
    /** No reply from the server in time. */
    TIMEOUT,
    /** No pooled connection became free in time; nothing was sent. */
    POOL_EXHAUSTED,
    /** Not attempted: the circuit breaker is open or the bulkhead full. */
    REJECTED,
    /** The server could not be reached. */
    CONNECTION_FAILURE,
    /** The server answered with an error. */
    SERVER_ERROR,
    /** Anything else. */
    FAILURE;

    private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /**
     * The outcome of a failed call.
     * @param failure the exception the caller received
     * @return the outcome
     */
    public static CallOutcome of(Throwable failure) {
        if (failure instanceof CachePoolExhaustedException) {
            return POOL_EXHAUSTED;
        }
        if (failure instanceof CacheRejectedException) {
            return REJECTED;
        }
        if (failure instanceof CacheTimeoutException) {
            return TIMEOUT;
        }
        if (failure instanceof CacheConnectionException) {
            return CONNECTION_FAILURE;
        }
        if (failure instanceof CacheServerException) {
            return SERVER_ERROR;
        }
        return FAILURE;
    }

    /**
     * The tag value, such as {@code connection-failure}.
     * @return the tag
     */
    public String tag() {
        return this.tag;
    }
}
