package io.adaptivecache;

/**
 * What a template's callers see when a call fails because of the cache (a timeout, a lost
 * connection, an open circuit breaker, an exhausted pool). Invalid input is always thrown, in
 * either mode, before anything is sent.
 */
public enum CacheFailureMode {

    /** The caller gets the {@link CacheException}. */
    FAIL_FAST,

    /**
     * Reads ({@code get}, {@code getAll}, {@code gets}) return a miss; writes ({@code set},
     * {@code add}, {@code replace}, {@code delete}, {@code touch}) are skipped and report that
     * nothing changed. Both are counted. {@code cas}, {@code incr} and {@code decr} still throw:
     * their result is a fact the caller acts on, and no neutral value exists for it.
     */
    DEGRADE
}
