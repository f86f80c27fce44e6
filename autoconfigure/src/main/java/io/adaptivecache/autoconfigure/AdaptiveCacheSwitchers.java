package io.adaptivecache.autoconfigure;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.adaptive.StrategyPolicy;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.StrategySwitchers;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.adaptive.SwitchListener;
import io.adaptivecache.adaptive.SwitcherOptions;
import io.adaptivecache.adaptive.SwitcherRegistry;
import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.template.AbstractCacheTemplateBuilder;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The adaptive switcher of every managed cache template, by template name ({@code redis},
 * {@code memcached}, and the names of the application's own template beans): the
 * {@link StrategySwitchers} the Actuator endpoint, health indicators and meters read. The
 * auto-configured templates are built with the {@link SwitcherOptions} their properties resolve to
 * ({@link #options}) and register their switchers here themselves when they start; a template bean
 * of the application's own that was built without options gets one from here once it has started
 * ({@link #startForeign}), made the same way. Each switch is published as a
 * {@link CacheStrategySwitchedEvent} and passed to the listeners added here (metrics), whenever
 * they were added.
 * Each switcher asks the policy of the first {@link StrategyPolicyProvider} that answers for its
 * template, else the default {@link io.adaptivecache.adaptive.ThresholdStrategyPolicy} set by the
 * template's {@code adaptive} properties and the {@link StrategyPolicyCustomizer}s.
 */
public class AdaptiveCacheSwitchers extends SwitcherRegistry {

    private final Map<String, AdaptiveCacheTemplateProperties> sections = new LinkedHashMap<>();
    private final StrategyPolicies policies;
    private final ApplicationEventPublisher events;
    private final List<SwitchListener> listeners = new CopyOnWriteArrayList<>();
    // The switchers made here for templates built without options: closed by stopForeign(), the others by their templates.
    private final List<StrategySwitcher> foreign = new ArrayList<>();

    /**
     * Creates the registry, whose switchers ask the default policy as the properties set it.
     * @param templates the properties section of each template that has one
     * @param events where switches are published
     */
    public AdaptiveCacheSwitchers(List<? extends AdaptiveCacheTemplateProperties> templates, ApplicationEventPublisher events) {
        this(templates, events, List.of(), List.of());
    }

    /**
     * Creates the registry.
     * @param templates the properties section of each template that has one
     * @param events where switches are published
     * @param policyProviders the application's own policies, asked in order for each template
     * @param policyCustomizers applied in order to the default policy of a template no provider answers for
     */
    public AdaptiveCacheSwitchers(List<? extends AdaptiveCacheTemplateProperties> templates, ApplicationEventPublisher events,
            List<StrategyPolicyProvider> policyProviders, List<StrategyPolicyCustomizer> policyCustomizers) {
        // Each properties section names the template it configures: no lookup by backend here.
        templates.forEach(settings -> this.sections.put(settings.templateName(), settings));
        this.policies = new StrategyPolicies(policyProviders, policyCustomizers);
        this.events = events;
    }

    /**
     * Adds a listener to every switcher's switches, those already running too: every switcher
     * made with {@link #options} tells this registry, which tells the listeners it has then.
     * @param listener the listener
     */
    public void addListener(SwitchListener listener) {
        this.listeners.add(listener);
    }

    /**
     * How the switcher of a template with these settings is made: with the settings' mode,
     * window, pin and history, the policy {@link StrategyPolicies} chooses (made when the template
     * starts, once it is known whether its POOLED connections block and whether each shared connection has a thread of
     * its own), publishing every switch here.
     * @param settings the template's resolved settings
     * @return the options
     */
    SwitcherOptions options(TemplateSettings settings) {
        SwitcherOptions.PolicyFactory policy = new SwitcherOptions.PolicyFactory() {

            @Override
            public StrategyPolicy create(boolean pooledConnectionsBlock, int connectionLimit) {
                return create(pooledConnectionsBlock, false, connectionLimit);
            }

            @Override
            public StrategyPolicy create(boolean pooledConnectionsBlock, boolean threadPerSharedConnection, int connectionLimit) {
                return AdaptiveCacheSwitchers.this.policies.policyFor(settings, pooledConnectionsBlock, threadPerSharedConnection);
            }
        };
        return new SwitcherOptions(policy, settings.mode(), settings.window(), settings.pinned(), settings.historyWindows(),
                this::publish, System::nanoTime, Clock.systemUTC());
    }

    /**
     * Gives a started template a switcher, unless it has one: one it made itself (built with options, such as every
     * auto-configured template) or one made here before. The switcher is configured by the settings of the properties
     * section that names the template, else by the defaults ({@link TemplateSettings#unconfigured}): a template of the
     * application's own then starts on the strategy it was built with and the policy moves it from there, as the
     * properties' default ({@code strategy.type: adaptive}) does for the auto-configured templates.
     * @param template a started template
     */
    void startForeign(CacheTemplateManagement template) {
        if (get(template.name()) != null || AbstractCacheTemplateBuilder.hasOwnSwitcher(template)) {
            return;
        }
        TemplateSettings settings = settingsOf(template.name());
        StrategySwitcher switcher = start(options(settings), template, settings.connectionLimit());
        synchronized (this.foreign) {
            this.foreign.add(switcher);
        }
    }

    /** Closes and removes the switchers made by {@link #startForeign}; a template built with options closes its own. */
    void stopForeign() {
        List<StrategySwitcher> made;
        synchronized (this.foreign) {
            made = List.copyOf(this.foreign);
            this.foreign.clear();
        }
        made.forEach(switcher -> {
            switcher.close();
            unregister(switcher);
        });
    }

    /**
     * The settings of the template of that name. Templates are beans, and the lifecycle starts them
     * whichever bean defines one (an application's own may replace an auto-configured one under its
     * name), so the section is found by the name it gives its template; resolved only now, so that
     * a disabled backend's section, which was not checked, is not read.
     */
    private TemplateSettings settingsOf(String name) {
        AdaptiveCacheTemplateProperties properties = this.sections.get(name);
        return properties != null ? properties.settings() : TemplateSettings.unconfigured(name);
    }

    /**
     * The property that holds a template's connection limit ({@link StrategySwitcher#connectionLimit()}),
     * for messages that tell an operator where to raise it.
     * @param name the template's name
     * @return the property, such as {@code adaptive-cache.redis.adaptive.connection-limit}, or
     *         {@code null} for a template that no property configures
     */
    @Override
    public @Nullable String connectionLimitProperty(String name) {
        return settingsOf(name).connectionLimitProperty();
    }

    private void publish(SwitchEvent event) {
        this.listeners.forEach(listener -> listener.onSwitch(event));
        this.events.publishEvent(new CacheStrategySwitchedEvent(this, event));
    }

    /** The windows {@code history} covers (checked, with {@code window}, when the properties were bound). */
    static int historyWindows(AdaptiveCacheTemplateProperties.Adaptive adaptive) {
        return StrategySwitcher.historyWindows(adaptive.history(), adaptive.window());
    }

    /** For tests and tools: whether a template's switcher is in the given mode. */
    boolean hasMode(String name, AdaptiveMode mode) {
        StrategySwitcher switcher = get(name);
        return switcher != null && switcher.state().mode() == mode;
    }
}
