package io.adaptivecache;

/**
 * A key, value or TTL that the backend cannot accept. It is always thrown before anything is
 * written to a socket, so the connection stays usable and stored data is untouched. The
 * message says what was wrong and what is allowed.
 */
public class InvalidCacheInputException extends CacheException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     * @param message what was wrong and what is allowed
     */
    public InvalidCacheInputException(String message) {
        super(message);
    }
}
