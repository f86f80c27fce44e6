package io.adaptivecache.spring.cache;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.adaptivecache.CacheTemplate;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

/**
 * A {@link CacheManager} whose caches live in adaptive-cache templates, created on first use.
 * Each cache picks its template, TTL and the rest from a {@link CacheSettings} function, so
 * one application can keep some caches in Redis and others in memcached.
 */
public class AdaptiveCacheManager implements CacheManager {

    private final Function<String, CacheSettings> settings;
    private final CacheValueSerializer serializer;
    private final CacheFailureHandler failures;
    private final Map<String, AdaptiveCache> caches = new ConcurrentHashMap<>();

    /**
     * Creates a manager.
     * @param settings the settings of a cache, by name
     * @param serializer turns values into bytes
     * @param failures what a backend failure means for the caller
     */
    public AdaptiveCacheManager(Function<String, CacheSettings> settings, CacheValueSerializer serializer,
            CacheFailureHandler failures) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.serializer = Objects.requireNonNull(serializer, "serializer");
        this.failures = Objects.requireNonNull(failures, "failures");
    }

    @Override
    public Cache getCache(String name) {
        return this.caches.computeIfAbsent(name, this::create);
    }

    private AdaptiveCache create(String name) {
        CacheSettings cache = this.settings.apply(name);
        return new AdaptiveCache(name, cache.template(), cache.ttl(), cache.keyPrefix(), this.serializer,
                cache.allowNullValues(), this.failures);
    }

    @Override
    public Collection<String> getCacheNames() {
        return Collections.unmodifiableSet(this.caches.keySet());
    }

    /**
     * Backend failures that cost a miss or a skipped write so far.
     * @return the count
     */
    public long failureCount() {
        return this.failures.failureCount();
    }

    /**
     * Whether a backend failure reaches the caller rather than costing a miss or a skipped write.
     * @return {@code true} when failures are rethrown
     */
    public boolean rethrowsFailures() {
        return this.failures.rethrows();
    }

    /**
     * What turns this manager's values into bytes.
     * @return the serializer
     */
    public CacheValueSerializer getSerializer() {
        return this.serializer;
    }

    /**
     * How one cache is stored.
     *
     * @param template the template holding its entries
     * @param ttl entries' time to live, zero for none
     * @param keyPrefix prefix of every key
     * @param allowNullValues whether null values are cached
     */
    public record CacheSettings(CacheTemplate template, Duration ttl, String keyPrefix, boolean allowNullValues) {
    }
}
