package io.adaptivecache.autoconfigure;

import java.time.Clock;
import java.util.Collection;
import java.util.Collections;
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
import io.adaptivecache.management.CacheTemplateManagement;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The adaptive switcher of every managed cache template, by template name ({@code redis},
 * {@code memcached}, and the names of the application's own template beans). Switchers are
 * created when the templates start and stopped with them; each switch is published as a
 * {@link CacheStrategySwitchedEvent} and passed to the listeners added here (metrics). The
 * Actuator endpoint and health indicators read it as {@link StrategySwitchers}.
 * Each switcher asks the policy of the first {@link StrategyPolicyProvider} that answers for its
 * template, else the default {@link io.adaptivecache.adaptive.ThresholdStrategyPolicy} set by the
 * template's {@code adaptive} properties and the {@link StrategyPolicyCustomizer}s.
 */
public class AdaptiveCacheSwitchers implements StrategySwitchers {

    private final Map<String, AdaptiveCacheTemplateProperties> sections = new LinkedHashMap<>();
    private final StrategyPolicies policies;
    private final ApplicationEventPublisher events;
    private final Map<String, StrategySwitcher> switchers = Collections.synchronizedMap(new LinkedHashMap<>());
    private final List<SwitchListener> listeners = new CopyOnWriteArrayList<>();

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
     * Adds a listener to every switcher's switches.
     * @param listener the listener
     */
    public void addListener(SwitchListener listener) {
        this.listeners.add(listener);
    }

    /**
     * The switcher of a template.
     * @param name the template's name
     * @return the switcher, or {@code null} if there is none
     */
    @Override
    public @Nullable StrategySwitcher get(String name) {
        return this.switchers.get(name);
    }

    /**
     * Every switcher.
     * @return the switchers, in template order
     */
    @Override
    public Collection<StrategySwitcher> all() {
        synchronized (this.switchers) {
            return List.copyOf(this.switchers.values());
        }
    }

    /**
     * Creates and starts the switcher of a started template, configured by the settings its own
     * properties section resolved to ({@link TemplateSettings}, the ones its builder took), with the
     * policy {@link StrategyPolicies} chooses. A template of the application's own, which no
     * section configures, gets the default adaptive settings: it starts on the strategy it was built
     * with and the policy moves it from there, as the properties' default
     * ({@code strategy.type: adaptive}) does for the auto-configured templates.
     */
    void start(CacheTemplateManagement template) {
        TemplateSettings settings = settingsOf(template.name());
        StrategyPolicy policy = this.policies.policyFor(settings, template.stats().pooledConnectionsBlock());
        StrategySwitcher switcher = new StrategySwitcher(template, policy, settings.window(), settings.mode(), settings.pinned(),
                System::nanoTime, Clock.systemUTC(), this::publish, settings.connectionLimit(), settings.historyWindows());
        this.switchers.put(template.name(), switcher);
        switcher.start();
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

    void stopAll() {
        all().forEach(StrategySwitcher::close);
        this.switchers.clear();
    }

    private void publish(SwitchEvent event) {
        this.listeners.forEach(listener -> listener.onSwitch(event));
        this.events.publishEvent(new CacheStrategySwitchedEvent(this, event));
    }

    /** The windows {@code history} covers (checked, with {@code window}, when the properties were bound). */
    static int historyWindows(AdaptiveCacheTemplateProperties.Adaptive adaptive) {
        return StrategySwitcher.historyWindows(adaptive.getHistory(), adaptive.getWindow());
    }

    /** For tests and tools: whether a template's switcher is in the given mode. */
    boolean hasMode(String name, AdaptiveMode mode) {
        StrategySwitcher switcher = get(name);
        return switcher != null && switcher.state().mode() == mode;
    }
}
