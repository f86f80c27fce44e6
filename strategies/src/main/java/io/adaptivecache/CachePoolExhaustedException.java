package io.adaptivecache;

import org.jspecify.annotations.Nullable;

/**
 * No pooled connection became free within the pool's maximum wait. The command was not sent,
 * so it did not take effect; the server itself may be healthy (the pool is too small for the
 * load), which is why circuit breakers do not count this as a server failure.
 */
public class CachePoolExhaustedException extends CacheTimeoutException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     * @param message which pool, how long the caller waited, and what to change
     * @param cause the pool's exception
     */
    public CachePoolExhaustedException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
