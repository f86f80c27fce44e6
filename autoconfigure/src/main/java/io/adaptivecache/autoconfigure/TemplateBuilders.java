package io.adaptivecache.autoconfigure;

import io.adaptivecache.management.CallInterceptor;
import io.adaptivecache.template.AbstractCacheTemplateBuilder;
import org.springframework.beans.factory.ObjectProvider;

/** What every template's builder takes from the settings every template has, whatever its backend. */
final class TemplateBuilders {

    private TemplateBuilders() {
    }

    /**
     * Applies a template's name, initial strategy, pool customizers, drain timeout, guard,
     * failure mode, connection limit, call interceptor and adaptive switcher: the template makes
     * its switcher from the options its settings resolve to when it starts, and registers it in
     * {@code switchers}, which the endpoint, health indicators and meters read.
     * @param builder the backend's template builder
     * @param settings the template's properties section (checked when bound)
     * @param switchers makes the switcher's options and is where the switcher registers
     * @param guards makes the template's guard
     * @param poolCustomizers adjust its POOLED strategies' pools
     * @param interceptors wraps every call (the Micrometer Observations, when enabled), if there is exactly one
     */
    static void applyCommon(AbstractCacheTemplateBuilder<?> builder, AdaptiveCacheTemplateProperties settings,
            AdaptiveCacheSwitchers switchers, ObjectProvider<CacheCallGuards> guards, ObjectProvider<CachePoolCustomizer> poolCustomizers,
            ObjectProvider<CallInterceptor> interceptors) {
        String template = settings.templateName();
        builder.name(template);
        builder.strategy(settings.settings().initial());
        builder.adaptive(switchers.options(settings.settings()), switchers);
        builder.poolConfig(PoolCustomizers.forTemplate(template, poolCustomizers));
        builder.drainTimeout(settings.getDrainTimeout());
        builder.connectTimeout(settings.getConnectTimeout());
        builder.guard(guards.getIfAvailable(() -> CacheCallGuards.WITHOUT_RESILIENCE4J).forTemplate(template, settings.prefix(), settings));
        builder.onFailure(settings.getResilience().onFailure());
        builder.connectionLimit(settings.settings().connectionLimit());
        interceptors.ifUnique(builder::interceptCallsWith);
    }
}
