package io.adaptivecache.command;

import java.time.Duration;

import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ExceptionTranslator;

/**
 * Everything a {@link DefaultCacheTemplate} needs from one backend (Redis, memcached): how to
 * open a connection, how to issue each command on it, which input it accepts and how its
 * exceptions read. A backend owns the client-wide resources (event loops, timers) that its
 * connections share, and releases them in {@link #close()}.
 *
 * @param <C> the native connection type
 */
public interface CacheBackend<C> extends AutoCloseable {

    /**
     * The backend's kind, for logs and metrics tags.
     * @return for example {@code redis} or {@code memcached}
     */
    String kind();

    /**
     * Opens, checks and closes native connections.
     * @return the factory
     */
    ConnectionFactory<C> connections();

    /**
     * Issues commands on one connection.
     * @return the commands
     */
    CacheCommands<C> commands();

    /**
     * The keys, values and TTLs this backend accepts.
     * @return the rules
     */
    CacheInputRules inputRules();

    /**
     * Turns this backend's client exceptions into cache exceptions.
     * @return the translator
     */
    ExceptionTranslator exceptionTranslator();

    /**
     * The command timeout enforced by the client's own timer.
     * @return the timeout
     */
    Duration commandTimeout();

    /** Releases client-wide resources, after every connection is closed. */
    @Override
    void close();
}
