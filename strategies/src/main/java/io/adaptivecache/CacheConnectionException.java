package io.adaptivecache;

import org.jspecify.annotations.Nullable;

/**
 * The server could not be reached: connecting failed, the connection was lost, or the template
 * is not running. The command was not executed, or its outcome is unknown if the connection
 * dropped while it was in flight.
 */
public class CacheConnectionException extends CacheException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     * @param message what could not be reached
     * @param cause the client library's exception, or {@code null} when the failure has none
     */
    public CacheConnectionException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
