package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheTemplate;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Opens every {@link ManagedCacheTemplate} bean's connections when the context starts (not
 * when the bean is created, so building the context does no I/O of its own; only a Spring Data
 * Redis command sent meanwhile starts the Redis template earlier, through the Spring Data
 * connection factory, as Spring Data's own factory connects on first use) and drains and closes them
 * when it stops: the auto-configured templates and the application's own alike
 * ({@link CacheTemplateBeans}). A template built with switcher options starts and closes its
 * adaptive switcher itself; one of the application's own built without them is given one by
 * {@link AdaptiveCacheSwitchers} once it has started, stopped before the templates close. Its
 * phase is lower than the web server's, so the caches are up before requests arrive and close
 * only after the web server's graceful shutdown has let requests finish.
 */
public class CacheTemplatesLifecycle implements SmartLifecycle {

    /** Starts before, and stops after, the web server (whose phases are DEFAULT_PHASE - 2048 and - 1024). */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final ObjectProvider<CacheTemplate> templates;
    private final AdaptiveCacheSwitchers switchers;
    private final TemplateServerSources sources;
    private volatile boolean running;

    /**
     * Creates the lifecycle.
     * @param templates the template beans, read when the context starts; the managed ones are started
     * @param switchers gives a switcher to each template that does not make its own, once it has started
     */
    public CacheTemplatesLifecycle(ObjectProvider<CacheTemplate> templates, AdaptiveCacheSwitchers switchers) {
        this(templates, switchers, new TemplateServerSources());
    }

    /**
     * The auto-configuration's lifecycle, whose failed starts name where the template's server came from.
     * @param templates the template beans, read when the context starts; the managed ones are started
     * @param switchers gives a switcher to each template that does not make its own, once it has started
     * @param sources where the auto-configured templates' servers came from
     */
    CacheTemplatesLifecycle(ObjectProvider<CacheTemplate> templates, AdaptiveCacheSwitchers switchers, TemplateServerSources sources) {
        this.templates = templates;
        this.switchers = switchers;
        this.sources = sources;
    }

    @Override
    public void start() {
        for (ManagedCacheTemplate template : current()) {
            // Under the template's monitor: the Spring Data connection factory may start it too, on a command sent while
            // the context was built, and a second start would fail.
            synchronized (template) {
                if (!template.stats().running()) {
                    try {
                        template.start();
                    }
                    catch (CacheConnectionException ex) {
                        // Carries where the server came from to the failure analysis, which runs once these beans are gone.
                        throw this.sources.startFailure(template, ex);
                    }
                }
            }
            this.switchers.startForeign(template);
        }
        this.running = true;
    }

    @Override
    public void stop() {
        this.running = false;
        this.switchers.stopForeign();
        current().forEach(ManagedCacheTemplate::close);
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    private List<ManagedCacheTemplate> current() {
        return CacheTemplateBeans.managed(this.templates);
    }
}
