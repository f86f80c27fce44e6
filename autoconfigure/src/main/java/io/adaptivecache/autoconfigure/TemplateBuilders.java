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
     * failure mode, connection limit and call interceptor.
     * @param builder the backend's template builder
     * @param settings the template's properties section (checked when bound)
     * @param guards makes the template's guard
     * @param poolCustomizers adjust its POOLED strategies' pools
     * @param interceptors wraps every call (the Micrometer Observations, when enabled), if there is exactly one
     */
    static void applyCommon(AbstractCacheTemplateBuilder<?> builder, AdaptiveCacheTemplateProperties settings,
            ObjectProvider<CacheCallGuards> guards, ObjectProvider<CachePoolCustomizer> poolCustomizers,
            ObjectProvider<CallInterceptor> interceptors) {
        String template = settings.templateName();
        builder.name(template);
        builder.strategy(settings.settings().initial());
        builder.poolConfig(PoolCustomizers.forTemplate(template, poolCustomizers));
        builder.drainTimeout(settings.getDrainTimeout());
        builder.guard(guards.getIfAvailable(() -> CacheCallGuards.WITHOUT_RESILIENCE4J).forTemplate(template, settings.prefix(), settings));
        builder.onFailure(settings.getResilience().getOnFailure());
        builder.connectionLimit(settings.settings().connectionLimit());
        interceptors.ifUnique(builder::interceptCallsWith);
    }
}
