package io.adaptivecache;

import org.jspecify.annotations.Nullable;

/**
 * A command did not complete within its timeout, or no connection could be had within the
 * pool's maximum wait. Whether the command took effect on the server is unknown.
 */
public class CacheTimeoutException extends CacheException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     * @param message what timed out and after how long
     * @param cause the client library's exception, or {@code null} when the failure has none
     */
    public CacheTimeoutException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
