package io.adaptivecache;

/**
 * What a template's callers see when a call fails because of the cache (a timeout, a lost
 * connection, an open circuit breaker, an exhausted pool). Invalid input is always thrown, in
 * either mode, before anything is sent.
 */
public enum CacheFailureMode {

    /**
     * The caller gets the {@link CacheException}, and a server that cannot be reached when the
     * template starts fails the start.
     */
    FAIL_FAST,

    /**
     * Reads ({@code get}, {@code getAll}, {@code gets}) return a miss; writes ({@code set},
     * {@code add}, {@code replace}, {@code delete}, {@code touch}) are skipped and report that
     * nothing changed. Both are counted. {@code cas}, {@code incr} and {@code decr} still throw:
     * their result is a fact the caller acts on, and no neutral value exists for it.
     *
     * <p>A server that cannot be reached when the template starts does not fail the start: the
     * template starts not connected, where every call fails at once (and degrades as above, or
     * throws for {@code cas}, {@code incr} and {@code decr}) without waiting for a timeout, and a
     * background thread keeps trying to connect (backing off from 100 ms to 5 s) until the
     * server answers, when calls reach it with no restart.
     */
    DEGRADE
}
