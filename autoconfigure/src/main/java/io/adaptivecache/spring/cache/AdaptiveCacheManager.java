package io.adaptivecache.spring.cache;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.near.NearCacheSettings;
import io.adaptivecache.near.NearCacheTemplate;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

/**
 * A {@link CacheManager} whose caches live in adaptive-cache templates, created on first use.
 * Each cache picks its template, TTL and the rest from a {@link CacheSettings} function, so
 * one application can keep some caches in Redis and others in memcached.
 *
 * <p>A cache whose settings carry a {@link NearCache} stores through its near cache (a local
 * tier in front of the template); the manager owns those near caches and closes them when it is
 * destroyed, before the invalidation source and the templates they use (which it does not own).
 */
public class AdaptiveCacheManager implements CacheManager, DisposableBean {

    private final Function<String, CacheSettings> settings;
    private final CacheValueSerializer serializer;
    private final CacheFailureHandler failures;
    private final Map<String, AdaptiveCache> caches = new ConcurrentHashMap<>();
    private final Map<String, NearCache> nearCaches = new ConcurrentHashMap<>();
    private final List<Consumer<NearCache>> nearCacheListeners = new CopyOnWriteArrayList<>();

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
        NearCache near = cache.near();
        if (near != null) {
            synchronized (this.nearCacheListeners) {
                this.nearCaches.put(name, near);
                this.nearCacheListeners.forEach(listener -> listener.accept(near));
            }
        }
        return new AdaptiveCache(name, near != null ? near.template() : cache.template(), cache.ttl(), cache.keyPrefix(),
                this.serializer, cache.allowNullValues(), this.failures);
    }

    /**
     * The near caches of the caches created so far, by cache name.
     * @return the near caches
     */
    public Map<String, NearCache> getNearCaches() {
        return Collections.unmodifiableMap(this.nearCaches);
    }

    /**
     * Calls the listener with every near cache, those made so far and those made later (caches are
     * created on first use): how meters find near caches that do not exist yet at startup.
     * @param listener told of each near cache once
     */
    public void onNearCache(Consumer<NearCache> listener) {
        synchronized (this.nearCacheListeners) {
            this.nearCacheListeners.add(listener);
            this.nearCaches.values().forEach(listener);
        }
    }

    /**
     * Closes the near caches (their local tiers and subscriptions); the templates and the
     * invalidation source stay open for their owners to close.
     */
    @Override
    public void destroy() {
        this.nearCaches.values().forEach(near -> near.template().close());
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
     * @param near the near cache in front of the template, which the manager then owns, or {@code null} for none
     */
    public record CacheSettings(CacheTemplate template, Duration ttl, String keyPrefix, boolean allowNullValues,
            @Nullable NearCache near) {

        /**
         * How one cache is stored, without a near cache.
         * @param template the template holding its entries
         * @param ttl entries' time to live, zero for none
         * @param keyPrefix prefix of every key
         * @param allowNullValues whether null values are cached
         */
        public CacheSettings(CacheTemplate template, Duration ttl, String keyPrefix, boolean allowNullValues) {
            this(template, ttl, keyPrefix, allowNullValues, null);
        }
    }

    /**
     * A cache's near cache and the settings of its local tier.
     *
     * @param template the near cache, in front of the cache's template
     * @param settings its local tier's bounds and prefixes
     * @param backend the backend behind it: redis or memcached
     */
    public record NearCache(NearCacheTemplate template, NearCacheSettings settings, String backend) {
    }
}
