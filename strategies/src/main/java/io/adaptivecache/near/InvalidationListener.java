package io.adaptivecache.near;

/**
 * What an {@link InvalidationSource} tells a near cache's local tier. Both methods are called on
 * the source's I/O thread, in the order the server sent the messages, and must return quickly
 * without blocking.
 */
public interface InvalidationListener {

    /**
     * The server says a key changed (written, deleted, expired or evicted there): the local copy
     * must go, and a read of the key already on its way must not store what it brings back.
     * @param key the key, within one of the prefixes the listener subscribed to
     */
    void invalidate(String key);

    /**
     * Every local copy must go, and no read already on its way may store what it brings back:
     * the server dropped everything ({@code FLUSHALL}, {@code FLUSHDB}), or invalidations may
     * have been lost (the connection that carries them dropped or went silent).
     */
    void invalidateAll();
}
