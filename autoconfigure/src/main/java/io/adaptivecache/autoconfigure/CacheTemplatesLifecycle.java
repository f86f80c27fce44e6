package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Opens every {@link ManagedCacheTemplate} bean's connections when the context starts (not
 * when the bean is created, so building the context does no I/O) and drains and closes them
 * when it stops, starting and stopping each template's adaptive switcher with it: the
 * auto-configured templates and the application's own alike ({@link CacheTemplateBeans}). Its
 * phase is lower than the web server's, so the caches are up before requests arrive and close
 * only after the web server's graceful shutdown has let requests finish.
 */
public class CacheTemplatesLifecycle implements SmartLifecycle {

    /** Starts before, and stops after, the web server (whose phases are DEFAULT_PHASE - 2048 and - 1024). */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final ObjectProvider<CacheTemplate> templates;
    private final AdaptiveCacheSwitchers switchers;
    private volatile boolean running;

    /**
     * Creates the lifecycle.
     * @param templates the template beans, read when the context starts; the managed ones are started
     * @param switchers where each template's adaptive switcher is started once the template is
     */
    public CacheTemplatesLifecycle(ObjectProvider<CacheTemplate> templates, AdaptiveCacheSwitchers switchers) {
        this.templates = templates;
        this.switchers = switchers;
    }

    @Override
    public void start() {
        for (ManagedCacheTemplate template : current()) {
            if (!template.stats().running()) {
                template.start();
            }
            this.switchers.start(template);
        }
        this.running = true;
    }

    @Override
    public void stop() {
        this.running = false;
        this.switchers.stopAll();
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
