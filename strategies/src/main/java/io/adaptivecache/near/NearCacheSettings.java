package io.adaptivecache.near;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import io.adaptivecache.internal.Arguments;

/**
 * The local tier of one near cache: how much it may hold, how long an entry may live, and which
 * keys it caches. Memory is always bounded, by a number of entries and by their weight in bytes:
 * both bounds hold (10,000 entries and 64 MiB unless set), so that large values written by other
 * clients cannot fill the heap however few they are.
 *
 * <pre>{@code
 * NearCacheSettings settings = NearCacheSettings.builder()
 *         .maximumEntries(50_000)
 *         .timeToLive(Duration.ofMinutes(5))
 *         .keyPrefixes("users:")
 *         .build();
 * }</pre>
 */
public final class NearCacheSettings {

    /** The default bound in bytes, 64 MiB. */
    public static final long DEFAULT_MAXIMUM_WEIGHT_BYTES = 64L * 1024 * 1024;

    /** The default entry bound, 10,000. */
    public static final long DEFAULT_MAXIMUM_ENTRIES = 10_000;

    /** 10,000 entries, 64 MiB, five minutes, every key. */
    public static final NearCacheSettings DEFAULTS = builder().build();

    private final long maximumEntries;
    private final long maximumWeightBytes;
    private final Duration timeToLive;
    private final List<String> keyPrefixes;
    private final String name;

    private NearCacheSettings(Builder builder) {
        this.maximumEntries = builder.maximumEntries;
        this.maximumWeightBytes = builder.maximumWeightBytes;
        this.timeToLive = builder.timeToLive;
        this.keyPrefixes = List.copyOf(builder.keyPrefixes);
        this.name = builder.name;
    }

    /**
     * Starts settings with the defaults: 10,000 entries, 64 MiB, five minutes, every key.
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The most entries the local tier holds.
     * @return the bound
     */
    public long maximumEntries() {
        return maximumEntries;
    }

    /**
     * The most bytes (keys, values and a per-entry overhead) the local tier holds.
     * @return the bound
     */
    public long maximumWeightBytes() {
        return maximumWeightBytes;
    }

    /**
     * The longest a local copy lives, counted from when the read that fetched it was sent.
     * @return the cap
     */
    public Duration timeToLive() {
        return timeToLive;
    }

    /**
     * The key prefixes the local tier caches; other keys always go to the server.
     * @return the prefixes, empty for every key
     */
    public List<String> keyPrefixes() {
        return keyPrefixes;
    }

    /**
     * The near cache's name for metrics and logs, or {@code null} to use the template's.
     * @return the name
     */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "NearCacheSettings[" + maximumEntries + " entries, " + maximumWeightBytes + " bytes"
                + ", ttl " + timeToLive + ", prefixes " + (keyPrefixes.isEmpty() ? "(every key)" : keyPrefixes) + "]";
    }

    /** Builds {@link NearCacheSettings}; not thread-safe. */
    public static final class Builder {

        private long maximumEntries = DEFAULT_MAXIMUM_ENTRIES;
        private long maximumWeightBytes = DEFAULT_MAXIMUM_WEIGHT_BYTES;
        private Duration timeToLive = Duration.ofMinutes(5);
        private final List<String> keyPrefixes = new ArrayList<>();
        private String name;

        private Builder() {
        }

        /**
         * The most entries the local tier holds (default 10,000); the weight bound holds too.
         * @param maximumEntries at least 1
         * @return this builder
         */
        public Builder maximumEntries(long maximumEntries) {
            this.maximumEntries = Arguments.atLeast(maximumEntries, 1, "The near cache's maximum entries");
            return this;
        }

        /**
         * The most bytes the local tier holds (default 64 MiB, {@link #DEFAULT_MAXIMUM_WEIGHT_BYTES}):
         * each entry weighs its value's bytes, two bytes per key character and 64 bytes of
         * overhead. The entry bound holds too (raise it for many small values): the tier holds
         * both as one weight, each entry weighing at least this bound's share of one entry
         * ({@code maximumWeight / maximumEntries}), so that neither bound is exceeded.
         * @param maximumWeightBytes at least 1
         * @return this builder
         */
        public Builder maximumWeight(long maximumWeightBytes) {
            this.maximumWeightBytes = Arguments.atLeast(maximumWeightBytes, 1, "The near cache's maximum weight in bytes");
            return this;
        }

        /**
         * The longest a local copy lives, counted from when the read that fetched it was sent;
         * default five minutes. With Redis this caps how long a copy outlives its key's own TTL
         * on the server (see the near-cache guide); for a tier without invalidations the
         * staleness bound is set separately.
         * @param timeToLive positive
         * @return this builder
         */
        public Builder timeToLive(Duration timeToLive) {
            Objects.requireNonNull(timeToLive, "timeToLive");
            if (timeToLive.isNegative() || timeToLive.isZero()) {
                throw new IllegalArgumentException("The near cache's time to live must be positive, was " + timeToLive);
            }
            this.timeToLive = timeToLive;
            return this;
        }

        /**
         * The key prefixes to cache locally, such as a Spring cache's {@code app:users:}; other
         * keys always go to the server. With Redis the server then reports writes to these
         * prefixes only. Default: none, which caches every key, and with Redis makes the server
         * report every write to any key to each application instance.
         * @param keyPrefixes non-empty prefixes
         * @return this builder
         */
        public Builder keyPrefixes(String... keyPrefixes) {
            return keyPrefixes(List.of(keyPrefixes));
        }

        /**
         * The key prefixes to cache locally; see {@link #keyPrefixes(String...)}.
         * @param keyPrefixes non-empty prefixes
         * @return this builder
         */
        public Builder keyPrefixes(Collection<String> keyPrefixes) {
            for (String prefix : keyPrefixes) {
                if (prefix == null || prefix.isEmpty()) {
                    throw new IllegalArgumentException("A near cache key prefix must not be null or empty; give none to cache"
                            + " every key");
                }
            }
            this.keyPrefixes.clear();
            this.keyPrefixes.addAll(keyPrefixes);
            return this;
        }

        /**
         * The name for metrics and logs; default the template's.
         * @param name the name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Builds the settings.
         * @return the settings
         */
        public NearCacheSettings build() {
            return new NearCacheSettings(this);
        }
    }
}
