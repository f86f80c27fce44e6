package io.adaptivecache;

import org.jspecify.annotations.Nullable;

/**
 * The root of the unchecked exceptions thrown by a {@link CacheTemplate}. Catch a subclass to
 * act on a specific cause: {@link InvalidCacheInputException} (fix the call),
 * {@link CacheTimeoutException} (retry later or treat as a miss), {@link CacheConnectionException}
 * (the server is unreachable) and {@link CacheServerException} (the server refused the command).
 */
public class CacheException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message.
     * @param message what went wrong
     */
    public CacheException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a message and a cause.
     * @param message what went wrong
     * @param cause the client library's exception
     */
    public CacheException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
