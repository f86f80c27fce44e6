package io.adaptivecache.autoconfigure;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.CacheTemplate;

/**
 * Where each auto-configured template's server came from: the words of its startup line
 * ({@link ResolvedRedisConnection#source()}, {@link MemcachedCacheTemplateConfiguration#source})
 * and whether they name a connection details bean. Recorded when the template is built, and
 * carried into a failed start by {@link CacheTemplatesLifecycle} ({@link StartFailure}), so that
 * {@link CacheConnectionFailureAnalyzer} can name the source: by the time Spring Boot analyzes a
 * failed start, the context's beans, this one among them, are gone.
 */
final class TemplateServerSources {

    // By identity: two templates never share a source, whatever their names or equals say.
    private final Map<CacheTemplate, Source> sources = Collections.synchronizedMap(new IdentityHashMap<>());

    /**
     * Records a template's source.
     * @param template the template built from it
     * @param description the startup line's words, such as {@code adaptive-cache.redis.url}; never a value
     * @param connectionDetails whether they name a connection details bean rather than properties
     */
    void record(CacheTemplate template, String description, boolean connectionDetails) {
        this.sources.put(template, new Source(description, connectionDetails));
    }

    /**
     * A template's failure to start, with its source when one was recorded.
     * @param template the template whose start failed
     * @param failure why
     * @return the failure to throw: a {@link StartFailure} around it, or itself for a template of the application's own
     */
    RuntimeException startFailure(CacheTemplate template, CacheConnectionException failure) {
        Source source = this.sources.get(template);
        return source == null ? failure : new StartFailure(template.name(), source, failure);
    }

    /** Where a server came from. */
    record Source(String description, boolean connectionDetails) {
    }

    /**
     * A template that could not connect at startup, and where its server came from; the cause
     * is what the template reported. Found by the failure analyzer in the startup failure's causes.
     */
    static final class StartFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient Source source;

        StartFailure(String template, Source source, CacheConnectionException cause) {
            super("The cache template '" + template + "' could not connect at startup to its server, from " + source.description(),
                    cause);
            this.source = source;
        }

        /** Where the template's server came from. */
        Source source() {
            return this.source;
        }
    }
}
