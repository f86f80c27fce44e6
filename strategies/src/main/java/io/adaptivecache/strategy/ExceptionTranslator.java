package io.adaptivecache.strategy;

import io.adaptivecache.CacheException;

/**
 * Turns a client library's exception into the {@link CacheException} a caller can act on.
 * Each backend supplies one.
 */
@FunctionalInterface
public interface ExceptionTranslator {

    /**
     * Translates a failure; never called with a {@link CacheException}, which passes unchanged.
     * @param failure the client's exception, already unwrapped from
     *     {@link java.util.concurrent.CompletionException}
     * @return the exception to give the caller
     */
    CacheException translate(Throwable failure);
}
