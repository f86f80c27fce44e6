package io.adaptivecache.template;

import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.SwitcherOptions;
import io.adaptivecache.adaptive.SwitcherRegistry;
import io.adaptivecache.management.CacheTemplateManagement;
import org.jspecify.annotations.Nullable;

/**
 * The adaptive switcher a template makes for itself when it starts (from the builder's
 * {@link SwitcherOptions}), registers where management tools find it, and closes and removes
 * first thing when it closes. Its own lock keeps a close that races a start from leaving a
 * switcher running.
 */
final class OwnedSwitcher {

    // Both null for a template built without switcher options: then this does nothing.
    private final @Nullable SwitcherOptions options;
    private final @Nullable SwitcherRegistry registry;
    private final Object lock = new Object();
    private @Nullable StrategySwitcher switcher;
    private boolean closed;

    OwnedSwitcher(@Nullable SwitcherOptions options, @Nullable SwitcherRegistry registry) {
        this.options = options;
        this.registry = registry;
    }

    /** Whether the template makes its own switcher when it starts. */
    boolean configured() {
        return options != null;
    }

    /**
     * A new, registered, not yet started switcher (its policy made too, so that one that cannot
     * be made fails the start before anything opens), or {@code null} for a template without
     * options, a closed one or a second start.
     */
    @Nullable StrategySwitcher make(CacheTemplateManagement template, boolean pooledConnectionsBlock, boolean threadPerSharedConnection,
            int connectionLimit) {
        if (options == null || registry == null) {
            return null;
        }
        synchronized (lock) {
            if (switcher != null || closed) {
                return null;
            }
            StrategySwitcher made = options.newSwitcher(template, pooledConnectionsBlock, threadPerSharedConnection, connectionLimit);
            registry.register(made);
            switcher = made;
            return made;
        }
    }

    /** Starts a switcher {@link #make} returned, unless a close has taken it meanwhile: a closed switcher started again would run on. */
    void start(StrategySwitcher made) {
        synchronized (lock) {
            if (switcher == made) {
                made.start();
            }
        }
    }

    /** Forgets a switcher whose template did not start, so that another start may make one. */
    void drop(StrategySwitcher made) {
        synchronized (lock) {
            if (switcher == made) {
                switcher = null;
            }
        }
        unregister(made);
    }

    /** Stops the switcher (before the template's connections drain, so that it starts no switch on a closing template) and removes it. */
    void close() {
        StrategySwitcher running;
        synchronized (lock) {
            closed = true;
            running = switcher;
            switcher = null;
        }
        if (running != null) {
            try {
                running.close();
            }
            finally {
                unregister(running);
            }
        }
    }

    private void unregister(StrategySwitcher made) {
        if (registry != null) {
            registry.unregister(made);
        }
    }
}
