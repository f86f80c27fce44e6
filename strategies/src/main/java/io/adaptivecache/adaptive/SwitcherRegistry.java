package io.adaptivecache.adaptive;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.management.TemplateStats;
import org.jspecify.annotations.Nullable;

/**
 * The running switchers of a set of templates, by template name: where a template built with
 * {@code adaptive(options, registry)} registers its switcher when it starts and removes it when it
 * closes, and what management tools read as {@link StrategySwitchers}. Thread-safe; switchers are
 * listed in the order they registered.
 *
 * <p>No property configures a template's connection limit here, so {@link #connectionLimitProperty}
 * answers {@code null}; a layer that has such properties (the Spring Boot starter) overrides it.
 */
public class SwitcherRegistry implements StrategySwitchers {

    private final Map<String, StrategySwitcher> switchers = new LinkedHashMap<>();

    /** Creates an empty registry. */
    public SwitcherRegistry() {
    }

    /**
     * Adds a switcher under its template's name.
     * @param switcher the switcher
     * @throws IllegalStateException if another switcher is registered under that name: two templates that share a
     *         name could not be told apart by the tools that read this registry
     */
    public void register(StrategySwitcher switcher) {
        String name = Objects.requireNonNull(switcher, "switcher").template().name();
        synchronized (this.switchers) {
            StrategySwitcher other = this.switchers.putIfAbsent(name, switcher);
            if (other != null && other != switcher) {
                throw new IllegalStateException("A switcher of a template named '" + name + "' is registered already (of "
                        + other.template() + "); give each template its own name");
            }
        }
    }

    /**
     * Removes a switcher, if it is the one registered under its template's name (not another
     * template's of the same name).
     * @param switcher the switcher
     * @return whether it was registered
     */
    public boolean unregister(StrategySwitcher switcher) {
        synchronized (this.switchers) {
            return this.switchers.remove(switcher.template().name(), switcher);
        }
    }

    /**
     * Creates a switcher of a template from options, registers it and starts it: for a template built without
     * {@code adaptive(options, registry)}, the path such a template takes itself when it starts.
     * @param options how the switcher is made
     * @param template the started template
     * @param connectionLimit the most connections an operator's pin or trial may ask for, and the policy's cap
     * @return the running switcher
     * @throws IllegalStateException if a switcher is registered under the template's name already (nothing is started)
     */
    public StrategySwitcher start(SwitcherOptions options, CacheTemplateManagement template, int connectionLimit) {
        TemplateStats stats = template.stats();
        StrategySwitcher switcher = options.newSwitcher(template, stats.pooledConnectionsBlock(), stats.threadPerSharedConnection(),
                connectionLimit);
        register(switcher);
        switcher.start();
        return switcher;
    }

    /**
     * The switcher of a template.
     * @param name the template's name
     * @return the switcher, or {@code null} if there is none
     */
    @Override
    public @Nullable StrategySwitcher get(String name) {
        synchronized (this.switchers) {
            return this.switchers.get(name);
        }
    }

    /**
     * Every switcher.
     * @return a copy, in the order the switchers registered
     */
    @Override
    public Collection<StrategySwitcher> all() {
        synchronized (this.switchers) {
            return List.copyOf(this.switchers.values());
        }
    }

    /**
     * Where an operator raises a template's connection limit: nowhere here, the builder sets it.
     * @param name the template's name
     * @return {@code null}
     */
    @Override
    public @Nullable String connectionLimitProperty(String name) {
        return null;
    }
}
