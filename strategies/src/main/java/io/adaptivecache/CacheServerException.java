package io.adaptivecache;

import org.jspecify.annotations.Nullable;

/**
 * The server received the command and answered with an error, for example incrementing a
 * value that is not a number, or running out of memory. The message carries the server's words.
 */
public class CacheServerException extends CacheException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     * @param message the server's error
     * @param cause the client library's exception, or {@code null} when the failure has none
     */
    public CacheServerException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
