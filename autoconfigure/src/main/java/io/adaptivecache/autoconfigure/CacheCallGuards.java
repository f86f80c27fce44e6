package io.adaptivecache.autoconfigure;

import io.adaptivecache.resilience.CallGuard;

/**
 * Makes each template's {@link CallGuard} from its {@code resilience} properties: on
 * Resilience4j when it is on the classpath ({@link Resilience4jCallGuards}), otherwise none.
 * An application's own bean of this type replaces the Resilience4j one for every template.
 */
@FunctionalInterface
public interface CacheCallGuards {

    /** Used when Resilience4j is absent: no guard, and a clear error if retry or bulkhead was asked for. */
    CacheCallGuards WITHOUT_RESILIENCE4J = (template, prefix, settings) -> {
        AdaptiveCacheTemplateProperties.Resilience resilience = settings.getResilience();
        if (resilience.retry().enabled()) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".resilience.retry.enabled", true,
                    "it needs io.github.resilience4j:resilience4j-retry (and -circuitbreaker, -bulkhead) on the classpath");
        }
        if (resilience.bulkhead().enabled()) {
            throw new InvalidAdaptiveCachePropertyException(prefix + ".resilience.bulkhead.enabled", true,
                    "it needs io.github.resilience4j:resilience4j-bulkhead (and -circuitbreaker, -retry) on the classpath");
        }
        return CallGuard.NONE;
    };

    /**
     * The guard of one template.
     * @param template the template's name, such as {@code redis}
     * @param prefix its properties' prefix, for error messages
     * @param settings its properties
     * @return the guard (the template closes it)
     */
    CallGuard forTemplate(String template, String prefix, AdaptiveCacheTemplateProperties settings);
}
