package io.adaptivecache.memcached;

import net.spy.memcached.compat.log.AbstractLogger;
import net.spy.memcached.compat.log.Level;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * spymemcached's logger, as the templates set it up: each line goes to the SLF4J logger of the
 * same name, at the same level, except INFO, which goes at DEBUG. spymemcached logs at INFO what
 * every client does when it starts and stops ("Added {QA sa=...} to connect queue", "Setting
 * retryQueueSize", "Shut down memcached client") and every reconnect it queues, so an application
 * would print them at each start, stop and strategy switch (a MULTI(N) opens N clients); what
 * calls for an operator (a lost connection, a failed operation) spymemcached logs at WARN and
 * above, and those stay where they are. Public because spymemcached creates it by name, through
 * its constructor; an application that names another logger in {@code net.spy.log.LoggerImpl}
 * keeps its own.
 */
public final class QuietSpymemcachedLogger extends AbstractLogger {

    private final Logger logger;

    /**
     * Creates the logger spymemcached asks for.
     * @param name the logger's name (the logging class's name)
     */
    public QuietSpymemcachedLogger(String name) {
        super(name);
        this.logger = LoggerFactory.getLogger(name);
    }

    @Override
    public boolean isTraceEnabled() {
        return this.logger.isTraceEnabled();
    }

    @Override
    public boolean isDebugEnabled() {
        return this.logger.isDebugEnabled();
    }

    /** Whether spymemcached's INFO lines are written: they go at DEBUG. */
    @Override
    public boolean isInfoEnabled() {
        return this.logger.isDebugEnabled();
    }

    /**
     * Writes one of spymemcached's lines to the SLF4J logger, INFO at DEBUG.
     * @param level spymemcached's level
     * @param message the line
     * @param e its throwable, or {@code null}
     */
    @Override
    public void log(Level level, @Nullable Object message, @Nullable Throwable e) {
        String text = String.valueOf(message);
        switch (level) {
            case TRACE -> this.logger.trace(text, e);
            case DEBUG, INFO -> this.logger.debug(text, e);
            case WARN -> this.logger.warn(text, e);
            case ERROR, FATAL -> this.logger.error(text, e);
            default -> this.logger.error(level + ": " + text, e);
        }
    }
}
