package io.adaptivecache.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.management.ManagedCacheTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * A short load the sample runs by itself once it is ready, over every template, so that the
 * page opens on charts with data and a policy with a verdict rather than on empty axes and
 * "too few calls to judge". Bounded in callers and time ({@code sample.demo-load.threads},
 * {@code sample.demo-load.duration}); {@code sample.demo-load.enabled=false} turns it off (the
 * tests do, so that their own loads run alone). It runs through the page's load generator, so
 * the page shows it as a run like its own and its Stop button ends it. On shutdown any run is
 * stopped before the templates close: this bean depends on them, so it is destroyed first.
 */
@Component
public class DemoLoad implements DisposableBean {

    private static final Logger logger = LoggerFactory.getLogger(DemoLoad.class);

    private final LoadGenerator load;
    private final List<ManagedCacheTemplate> templates;
    private final boolean enabled;
    private final int threads;
    private final Duration duration;

    /**
     * Creates the demo load.
     * @param load the page's load generator
     * @param templates every cache template, the demo's targets
     * @param enabled whether to run it at startup
     * @param threads callers in all, split evenly between the templates
     * @param duration how long it runs
     */
    public DemoLoad(LoadGenerator load, List<ManagedCacheTemplate> templates,
            @Value("${sample.demo-load.enabled:false}") boolean enabled, @Value("${sample.demo-load.threads:24}") int threads,
            @Value("${sample.demo-load.duration:25s}") Duration duration) {
        this.load = load;
        this.templates = List.copyOf(templates);
        this.enabled = enabled;
        this.threads = threads;
        this.duration = duration;
    }

    /** Starts the demo once the application serves requests (the page can be opened at once). */
    @EventListener(ApplicationReadyEvent.class)
    public void start() {
        if (!this.enabled || this.templates.isEmpty()) {
            return;
        }
        this.load.start(this.templates, this.threads, this.duration, 100, "demo");
        logger.info("Running a {} s demo load ({} callers on {}) so that the live page has something to show;"
                + " sample.demo-load.enabled=false turns it off", this.duration.toSeconds(), this.threads,
                this.templates.stream().map(ManagedCacheTemplate::name).toList());
    }

    /** Stops a run still going (the demo's or the page's) and waits a little for its callers, before the templates close. */
    @Override
    public void destroy() throws InterruptedException {
        this.load.stop();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (this.load.status().running() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
