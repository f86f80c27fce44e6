package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.adaptivecache.near.NearCacheSettings;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Properties of Spring Cache ({@code @Cacheable} and friends) over the cache templates
 * ({@code adaptive-cache.cache}). A value, bound through its constructor: nothing changes it once
 * bound.
 * @param enabled Whether to provide a CacheManager over the cache templates when caching is enabled.
 * @param backend Backend of caches not listed under backends. Defaults to redis when its template exists, else
 *        memcached.
 * @param backends Backend per cache name, overriding the default backend.
 * @param defaultTtl Time to live of entries of caches not listed under ttl; zero means no expiry.
 * @param ttl Time to live per cache name. memcached keeps whole seconds on a once-a-second clock, so there an entry
 *        with a TTL of n seconds lives n - 1 to n seconds.
 * @param keyPrefix Prefix of every key, to share a server between applications.
 * @param serializer How values are serialized.
 * @param json The JSON serializer's settings.
 * @param allowNullValues Whether to cache null values.
 * @param onError What a cache operation does when the backend fails.
 * @param near The near cache: a local tier (Caffeine) in front of the cache's template.
 */
@ConfigurationProperties(AdaptiveCacheSpringCacheProperties.PREFIX)
public record AdaptiveCacheSpringCacheProperties(@DefaultValue("true") boolean enabled, @Nullable Backend backend,
        @DefaultValue Map<String, Backend> backends, @DefaultValue("10m") Duration defaultTtl,
        @DefaultValue Map<String, Duration> ttl, @DefaultValue("") String keyPrefix, @DefaultValue("json") Serializer serializer,
        @DefaultValue Json json, @DefaultValue("true") boolean allowNullValues, @DefaultValue("degrade") OnError onError,
        @DefaultValue Near near) implements InitializingBean {

    /** The prefix of these properties. */
    public static final String PREFIX = "adaptive-cache.cache";

    /**
     * Checks the bound values once binding is done, unless Spring Cache support is disabled;
     * whether each backend named has a template is checked when the cache manager is made.
     * @throws InvalidAdaptiveCachePropertyException naming the first property at fault
     */
    @Override
    public void afterPropertiesSet() {
        if (this.enabled) {
            validate(PREFIX);
        }
    }

    void validate(String prefix) {
        PropertyRules.notNegative(prefix + ".default-ttl", this.defaultTtl, "no expiry");
        this.ttl.forEach((name, ttl) -> PropertyRules.notNegative(prefix + ".ttl." + name, ttl, "no expiry"));
        PropertyRules.present(prefix + ".serializer", this.serializer, "json or jdk");
        PropertyRules.present(prefix + ".on-error", this.onError, "degrade or rethrow");
        this.json.validate(prefix + ".json");
        this.near.validate(prefix + ".near");
    }

    /**
     * Whether some Spring cache stored on the given backend has a near cache, as far as the
     * properties tell: the default when enabled and the backend is a cache's default or is named
     * for some cache, or a cache whose own near settings enable it.
     * @param backend the backend
     * @param defaultBackend the backend of caches not listed under backends
     * @return {@code true} if a near cache may be made on that backend
     */
    public boolean usesNearCacheOn(Backend backend, Backend defaultBackend) {
        if (this.near.enabled() && (defaultBackend == backend || this.backends.containsValue(backend))) {
            return true;
        }
        return this.near.caches().entrySet().stream().anyMatch(entry -> Boolean.TRUE.equals(entry.getValue().enabled())
                && this.backends.getOrDefault(entry.getKey(), defaultBackend) == backend);
    }

    /**
     * Whether any cache may have a near cache (the default, or one cache's own settings).
     * @return {@code true} if some near cache is enabled
     */
    public boolean usesNearCache() {
        return this.near.enabled() || this.near.caches().values().stream().anyMatch(cache -> Boolean.TRUE.equals(cache.enabled()));
    }

    /**
     * The near cache of every Spring cache, unless overridden under {@code caches.<name>}. Off by
     * default; needs {@code com.github.ben-manes.caffeine:caffeine} on the classpath.
     * @param enabled Whether Spring caches have a near cache (a local tier in front of the server) unless set per cache.
     * @param maximumEntries The most entries a cache's local tier holds; maximum-weight holds too.
     * @param maximumWeight The most bytes (values, keys and a 64-byte overhead per entry) a cache's local tier holds;
     *        maximum-entries holds too, so that a few large values cannot fill the heap.
     * @param timeToLive The longest a local copy lives. With Redis, a copy is dropped as soon as the server reports
     *        the key changed; this caps how long a copy can outlive its key's own expiry on the server.
     * @param maxStaleness memcached only, which sends no invalidations: the longest a local copy lives, and so how
     *        long a write by another instance may go unseen (the staleness bound). Keep it short.
     * @param heartbeatInterval Redis: how often the invalidation connection is pinged. Interval plus timeout is the
     *        staleness bound, the longest a near cache serves locally without proof that invalidations arrive.
     * @param heartbeatTimeout Redis: how long a ping on the invalidation connection may take before the connection
     *        counts as lost.
     * @param caches Near cache settings per cache name; what a cache leaves unset comes from the defaults above.
     */
    public record Near(boolean enabled,
            // Literals, not NearCacheSettings' constants, so that the metadata shows the defaults (NearCacheBoundPropertiesTests
            // holds them equal).
            @DefaultValue("10000") long maximumEntries, @DefaultValue("64MB") DataSize maximumWeight,
            @DefaultValue("5m") Duration timeToLive, @DefaultValue("1s") Duration maxStaleness,
            @DefaultValue("500ms") Duration heartbeatInterval, @DefaultValue("500ms") Duration heartbeatTimeout,
            @DefaultValue Map<String, NearCache> caches) {

        /**
         * Whether a cache has a near cache.
         * @param cacheName the Spring cache's name
         * @return its own setting, else the default
         */
        public boolean enabledFor(String cacheName) {
            NearCache cache = this.caches.get(cacheName);
            return cache != null && cache.enabled() != null ? cache.enabled() : this.enabled;
        }

        /**
         * The local tier of a cache, its own settings over the defaults.
         * @param cacheName the Spring cache's name, which names the near cache too
         * @param keyPrefix the prefix of the cache's keys, the only keys kept locally
         * @return the settings
         */
        public NearCacheSettings settingsFor(String cacheName, String keyPrefix) {
            NearCache cache = this.caches.getOrDefault(cacheName, NearCache.UNSET);
            NearCacheSettings.Builder settings = NearCacheSettings.builder().name(cacheName).keyPrefixes(keyPrefix)
                    .timeToLive(cache.timeToLive() != null ? cache.timeToLive() : this.timeToLive);
            // Both bounds hold; each a cache leaves unset comes from the defaults.
            settings.maximumEntries(cache.maximumEntries() != null ? cache.maximumEntries() : this.maximumEntries);
            settings.maximumWeight((cache.maximumWeight() != null ? cache.maximumWeight() : this.maximumWeight).toBytes());
            return settings.build();
        }

        /**
         * The staleness bound of a memcached cache's local tier.
         * @param cacheName the Spring cache's name
         * @return its own setting, else the default
         */
        public Duration maxStalenessFor(String cacheName) {
            NearCache cache = this.caches.get(cacheName);
            return cache != null && cache.maxStaleness() != null ? cache.maxStaleness() : this.maxStaleness;
        }

        void validate(String prefix) {
            PropertyRules.atLeast(prefix + ".maximum-entries", this.maximumEntries, 1);
            if (this.maximumWeight == null) {
                // Bound to nothing (an empty value): the default byte bound cannot be lifted, only set.
                throw new InvalidAdaptiveCachePropertyException(prefix + ".maximum-weight", null, "it must be set, such as 64MB");
            }
            weight(prefix + ".maximum-weight", this.maximumWeight);
            PropertyRules.positive(prefix + ".time-to-live", this.timeToLive);
            PropertyRules.positive(prefix + ".max-staleness", this.maxStaleness);
            PropertyRules.positive(prefix + ".heartbeat-interval", this.heartbeatInterval);
            PropertyRules.positive(prefix + ".heartbeat-timeout", this.heartbeatTimeout);
            this.caches.forEach((name, cache) -> {
                String own = prefix + ".caches." + name;
                if (cache.maximumEntries() != null) {
                    PropertyRules.atLeast(own + ".maximum-entries", cache.maximumEntries(), 1);
                }
                weight(own + ".maximum-weight", cache.maximumWeight());
                if (cache.timeToLive() != null) {
                    PropertyRules.positive(own + ".time-to-live", cache.timeToLive());
                }
                if (cache.maxStaleness() != null) {
                    PropertyRules.positive(own + ".max-staleness", cache.maxStaleness());
                }
            });
        }

        private static void weight(String property, @Nullable DataSize weight) {
            if (weight != null && weight.toBytes() < 1) {
                throw new InvalidAdaptiveCachePropertyException(property, weight, "it must be at least 1B, such as 64MB");
            }
        }
    }

    /**
     * The JSON serializer: which classes a cached value may name.
     * @param allowedPackages Packages (with their subpackages) whose classes a cached value may name, besides the
     *        application's own (those of @SpringBootApplication) and the JDK's basic value and collection classes. A
     *        stored value naming any other class is read as a miss, never built.
     */
    public record Json(@DefaultValue List<String> allowedPackages) {

        private static final String IDENTIFIER = "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*";

        private static final Pattern PACKAGE_NAME = Pattern.compile(IDENTIFIER + "(\\." + IDENTIFIER + ")*");
        void validate(String prefix) {
            for (int i = 0; i < this.allowedPackages.size(); i++) {
                String name = this.allowedPackages.get(i);
                if (name == null || !PACKAGE_NAME.matcher(name).matches()) {
                    throw new InvalidAdaptiveCachePropertyException(prefix + ".allowed-packages[" + i + "]", name,
                            "it must be a package name, such as com.example.catalog (its subpackages are allowed too;"
                                    + " no wildcards)");
                }
            }
        }
    }

    /**
     * One cache's near cache; what is unset ({@code null}) comes from the defaults. A value, bound
     * through its constructor: nothing changes it once bound.
     * @param enabled whether this cache has a near cache; unset follows near.enabled
     * @param maximumEntries the most entries this cache's local tier holds; its maximum-weight holds too
     * @param maximumWeight the most bytes this cache's local tier holds; its maximum-entries holds too
     * @param timeToLive the longest a local copy of this cache lives
     * @param maxStaleness memcached only: this cache's staleness bound, the longest a local copy lives
     */
    public record NearCache(@Nullable Boolean enabled, @Nullable Long maximumEntries, @Nullable DataSize maximumWeight,
            @Nullable Duration timeToLive, @Nullable Duration maxStaleness) {

        /** A cache with nothing of its own: every setting comes from the defaults. */
        static final NearCache UNSET = new NearCache(null, null, null, null, null);
    }

    /** Which backend a Spring cache stores its entries in. */
    public enum Backend {

        /** The Redis cache template. */
        REDIS,

        /** The memcached cache template. */
        MEMCACHED
    }

    /** How cached values are turned into bytes. */
    public enum Serializer {

        /** JSON through Jackson, with the value's class recorded beside it. */
        JSON,

        /** Java serialization; values must be Serializable. */
        JDK
    }

    /** What a cache operation does when the backend fails. */
    public enum OnError {

        /** Reads are misses and writes are skipped; failures are counted and logged once per burst. */
        DEGRADE,

        /** The exception reaches the caller. */
        RETHROW
    }
}
