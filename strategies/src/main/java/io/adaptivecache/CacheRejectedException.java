package io.adaptivecache;

import org.jspecify.annotations.Nullable;

/**
 * The call was not attempted: the template's circuit breaker is open (the server failed or
 * answered too slowly recently), its bulkhead is full, or the client's bounded queue to the
 * server is full. Nothing was sent, so the call had no effect; retry later or treat it as a miss.
 */
public class CacheRejectedException extends CacheException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception, with the failure behind the refusal if there is one, such as the last
     * server failure that a circuit breaker counted before it opened.
     * @param message why the call was not attempted and until when
     * @param cause that failure, or {@code null}
     */
    public CacheRejectedException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
