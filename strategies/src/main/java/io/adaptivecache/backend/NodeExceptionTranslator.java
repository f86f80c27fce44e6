package io.adaptivecache.backend;

import io.adaptivecache.CacheException;
import io.adaptivecache.strategy.ExceptionTranslator;

/**
 * An {@link ExceptionTranslator} that can also name the one node a failed call went to, so that a
 * cluster's failure names that node (and slot) rather than the seed list the client started from.
 */
public interface NodeExceptionTranslator extends ExceptionTranslator {

    /**
     * Translates a failure of a call that went to one node.
     * @param failure the client's exception, unwrapped; never a {@link CacheException}
     * @param node where the call went, such as {@code node 10.0.0.2:6379 (slot 1234)}
     * @return the exception to give the caller
     */
    CacheException translate(Throwable failure, String node);
}
