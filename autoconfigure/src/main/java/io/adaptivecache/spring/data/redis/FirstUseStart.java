package io.adaptivecache.spring.data.redis;

import io.adaptivecache.management.ManagedCacheTemplate;
import org.jspecify.annotations.Nullable;

/**
 * Starts the template when a Spring Data command arrives before anything has started it. Code
 * built on Spring Data may send commands while the application context is still being built,
 * before its lifecycle starts the templates: Spring Session's indexed repository sets
 * {@code notify-keyspace-events} from an initializing bean, and Spring Data's own
 * {@code LettuceConnectionFactory} serves such commands, connecting on first use. The template's
 * monitor guards the start, as Spring Boot's template lifecycle takes it too, so that the two
 * never start it at once (the second start would fail).
 */
final class FirstUseStart {

    /** Nothing to start: the factory was given the template's connections without the template. */
    static final FirstUseStart NONE = new FirstUseStart(null);

    private final @Nullable ManagedCacheTemplate template;

    // Once seen running, it is never started again here: a closed template stays closed.
    private volatile boolean seenRunning;

    FirstUseStart(@Nullable ManagedCacheTemplate template) {
        this.template = template;
        this.seenRunning = template == null;
    }

    /**
     * Starts the template unless it has been seen running.
     * @throws RuntimeException what the template's start throws: a connection failure, or an
     *         {@link IllegalStateException} once it has been closed
     */
    void ensureStarted() {
        ManagedCacheTemplate started = this.template;
        if (this.seenRunning || started == null) {
            return;
        }
        synchronized (started) {
            if (!this.seenRunning) {
                if (!started.stats().running()) {
                    started.start();
                }
                this.seenRunning = true;
            }
        }
    }
}
