package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

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
