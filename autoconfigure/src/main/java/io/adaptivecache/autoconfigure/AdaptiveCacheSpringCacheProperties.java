package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.adaptivecache.near.NearCacheSettings;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Properties of Spring Cache ({@code @Cacheable} and friends) over the cache templates
 * ({@code adaptive-cache.cache}).
 */
@ConfigurationProperties(AdaptiveCacheSpringCacheProperties.PREFIX)
public class AdaptiveCacheSpringCacheProperties implements InitializingBean {

    /** The prefix of these properties. */
    public static final String PREFIX = "adaptive-cache.cache";

    /** Whether to provide a CacheManager over the cache templates when caching is enabled. */
    private boolean enabled = true;

    /** Backend of caches not listed under backends. Defaults to redis when its template exists, else memcached. */
    private @Nullable Backend backend;

    /** Backend per cache name, overriding the default backend. */
    private Map<String, Backend> backends = new LinkedHashMap<>();

    /** Time to live of entries of caches not listed under ttl; zero means no expiry. */
    private Duration defaultTtl = Duration.ofMinutes(10);

    /**
     * Time to live per cache name. memcached keeps whole seconds on a once-a-second clock, so
     * there an entry with a TTL of n seconds lives n - 1 to n seconds.
     */
    private Map<String, Duration> ttl = new LinkedHashMap<>();

    /** Prefix of every key, to share a server between applications. */
    private String keyPrefix = "";

    /** How values are serialized. */
    private Serializer serializer = Serializer.JSON;

    /** Whether to cache null values. */
    private boolean allowNullValues = true;

    /** What a cache operation does when the backend fails. */
    private OnError onError = OnError.DEGRADE;

    /** The near cache: a local tier (Caffeine) in front of the cache's template. */
    private final Near near = new Near();

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public @Nullable Backend getBackend() {
        return this.backend;
    }

    public void setBackend(@Nullable Backend backend) {
        this.backend = backend;
    }

    public Map<String, Backend> getBackends() {
        return this.backends;
    }

    public void setBackends(Map<String, Backend> backends) {
        this.backends = backends;
    }

    public Duration getDefaultTtl() {
        return this.defaultTtl;
    }

    public void setDefaultTtl(Duration defaultTtl) {
        this.defaultTtl = defaultTtl;
    }

    public Map<String, Duration> getTtl() {
        return this.ttl;
    }

    public void setTtl(Map<String, Duration> ttl) {
        this.ttl = ttl;
    }

    public String getKeyPrefix() {
        return this.keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Serializer getSerializer() {
        return this.serializer;
    }

    public void setSerializer(Serializer serializer) {
        this.serializer = serializer;
    }

    public boolean isAllowNullValues() {
        return this.allowNullValues;
    }

    public void setAllowNullValues(boolean allowNullValues) {
        this.allowNullValues = allowNullValues;
    }

    public OnError getOnError() {
        return this.onError;
    }

    public void setOnError(OnError onError) {
        this.onError = onError;
    }

    public Near getNear() {
        return this.near;
    }

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
        if (this.near.enabled && (defaultBackend == backend || this.backends.containsValue(backend))) {
            return true;
        }
        return this.near.caches.entrySet().stream().anyMatch(entry -> Boolean.TRUE.equals(entry.getValue().getEnabled())
                && this.backends.getOrDefault(entry.getKey(), defaultBackend) == backend);
    }

    /**
     * Whether any cache may have a near cache (the default, or one cache's own settings).
     * @return {@code true} if some near cache is enabled
     */
    public boolean usesNearCache() {
        return this.near.enabled || this.near.caches.values().stream().anyMatch(cache -> Boolean.TRUE.equals(cache.getEnabled()));
    }

    /**
     * The near cache of every Spring cache, unless overridden under {@code caches.<name>}. Off by
     * default; needs {@code com.github.ben-manes.caffeine:caffeine} on the classpath.
     */
    public static class Near {

        /** Whether Spring caches have a near cache (a local tier in front of the server) unless set per cache. */
        private boolean enabled;

        /** The most entries a cache's local tier holds; maximum-weight holds too. */
        // Literals, not NearCacheSettings' constants, so that the metadata shows the defaults (NearCacheBoundPropertiesTests
        // holds them equal).
        private long maximumEntries = 10_000;

        /**
         * The most bytes (values, keys and a 64-byte overhead per entry) a cache's local tier holds;
         * maximum-entries holds too, so that a few large values cannot fill the heap.
         */
        private DataSize maximumWeight = DataSize.ofMegabytes(64);

        /**
         * The longest a local copy lives. With Redis, a copy is dropped as soon as the server reports
         * the key changed; this caps how long a copy can outlive its key's own expiry on the server.
         */
        private Duration timeToLive = Duration.ofMinutes(5);

        /**
         * memcached only, which sends no invalidations: the longest a local copy lives, and so how
         * long a write by another instance may go unseen (the staleness bound). Keep it short.
         */
        private Duration maxStaleness = Duration.ofSeconds(1);

        /**
         * Redis: how often the invalidation connection is pinged. Interval plus timeout is the staleness
         * bound, the longest a near cache serves locally without proof that invalidations arrive.
         */
        private Duration heartbeatInterval = Duration.ofMillis(500);

        /** Redis: how long a ping on the invalidation connection may take before the connection counts as lost. */
        private Duration heartbeatTimeout = Duration.ofMillis(500);

        /** Near cache settings per cache name; what a cache leaves unset comes from the defaults above. */
        private Map<String, NearCache> caches = new LinkedHashMap<>();

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public long getMaximumEntries() {
            return this.maximumEntries;
        }

        public void setMaximumEntries(long maximumEntries) {
            this.maximumEntries = maximumEntries;
        }

        public DataSize getMaximumWeight() {
            return this.maximumWeight;
        }

        public void setMaximumWeight(DataSize maximumWeight) {
            this.maximumWeight = maximumWeight;
        }

        public Duration getTimeToLive() {
            return this.timeToLive;
        }

        public void setTimeToLive(Duration timeToLive) {
            this.timeToLive = timeToLive;
        }

        public Duration getMaxStaleness() {
            return this.maxStaleness;
        }

        public void setMaxStaleness(Duration maxStaleness) {
            this.maxStaleness = maxStaleness;
        }

        public Duration getHeartbeatInterval() {
            return this.heartbeatInterval;
        }

        public void setHeartbeatInterval(Duration heartbeatInterval) {
            this.heartbeatInterval = heartbeatInterval;
        }

        public Duration getHeartbeatTimeout() {
            return this.heartbeatTimeout;
        }

        public void setHeartbeatTimeout(Duration heartbeatTimeout) {
            this.heartbeatTimeout = heartbeatTimeout;
        }

        public Map<String, NearCache> getCaches() {
            return this.caches;
        }

        public void setCaches(Map<String, NearCache> caches) {
            this.caches = caches;
        }

        /**
         * Whether a cache has a near cache.
         * @param cacheName the Spring cache's name
         * @return its own setting, else the default
         */
        public boolean enabledFor(String cacheName) {
            NearCache cache = this.caches.get(cacheName);
            return cache != null && cache.getEnabled() != null ? cache.getEnabled() : this.enabled;
        }

        /**
         * The local tier of a cache, its own settings over the defaults.
         * @param cacheName the Spring cache's name, which names the near cache too
         * @param keyPrefix the prefix of the cache's keys, the only keys kept locally
         * @return the settings
         */
        public NearCacheSettings settingsFor(String cacheName, String keyPrefix) {
            NearCache cache = this.caches.getOrDefault(cacheName, new NearCache());
            NearCacheSettings.Builder settings = NearCacheSettings.builder().name(cacheName).keyPrefixes(keyPrefix)
                    .timeToLive(cache.getTimeToLive() != null ? cache.getTimeToLive() : this.timeToLive);
            // Both bounds hold; each a cache leaves unset comes from the defaults.
            settings.maximumEntries(cache.getMaximumEntries() != null ? cache.getMaximumEntries() : this.maximumEntries);
            settings.maximumWeight((cache.getMaximumWeight() != null ? cache.getMaximumWeight() : this.maximumWeight).toBytes());
            return settings.build();
        }

        /**
         * The staleness bound of a memcached cache's local tier.
         * @param cacheName the Spring cache's name
         * @return its own setting, else the default
         */
        public Duration maxStalenessFor(String cacheName) {
            NearCache cache = this.caches.get(cacheName);
            return cache != null && cache.getMaxStaleness() != null ? cache.getMaxStaleness() : this.maxStaleness;
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
                if (cache.getMaximumEntries() != null) {
                    PropertyRules.atLeast(own + ".maximum-entries", cache.getMaximumEntries(), 1);
                }
                weight(own + ".maximum-weight", cache.getMaximumWeight());
                if (cache.getTimeToLive() != null) {
                    PropertyRules.positive(own + ".time-to-live", cache.getTimeToLive());
                }
                if (cache.getMaxStaleness() != null) {
                    PropertyRules.positive(own + ".max-staleness", cache.getMaxStaleness());
                }
            });
        }

        private static void weight(String property, @Nullable DataSize weight) {
            if (weight != null && weight.toBytes() < 1) {
                throw new InvalidAdaptiveCachePropertyException(property, weight, "it must be at least 1B, such as 64MB");
            }
        }
    }

    /** One cache's near cache; what is unset comes from the defaults. */
    public static class NearCache {

        /** Whether this cache has a near cache; unset follows near.enabled. */
        private @Nullable Boolean enabled;

        /** The most entries this cache's local tier holds; its maximum-weight holds too. */
        private @Nullable Long maximumEntries;

        /** The most bytes this cache's local tier holds; its maximum-entries holds too. */
        private @Nullable DataSize maximumWeight;

        /** The longest a local copy of this cache lives. */
        private @Nullable Duration timeToLive;

        /** memcached only: this cache's staleness bound, the longest a local copy lives. */
        private @Nullable Duration maxStaleness;

        public @Nullable Boolean getEnabled() {
            return this.enabled;
        }

        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }

        public @Nullable Long getMaximumEntries() {
            return this.maximumEntries;
        }

        public void setMaximumEntries(@Nullable Long maximumEntries) {
            this.maximumEntries = maximumEntries;
        }

        public @Nullable DataSize getMaximumWeight() {
            return this.maximumWeight;
        }

        public void setMaximumWeight(@Nullable DataSize maximumWeight) {
            this.maximumWeight = maximumWeight;
        }

        public @Nullable Duration getTimeToLive() {
            return this.timeToLive;
        }

        public void setTimeToLive(@Nullable Duration timeToLive) {
            this.timeToLive = timeToLive;
        }

        public @Nullable Duration getMaxStaleness() {
            return this.maxStaleness;
        }

        public void setMaxStaleness(@Nullable Duration maxStaleness) {
            this.maxStaleness = maxStaleness;
        }
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
