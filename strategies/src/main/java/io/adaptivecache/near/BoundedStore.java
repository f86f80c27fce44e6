package io.adaptivecache.near;

import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.adaptivecache.near.LocalTier.Entry;
import org.jspecify.annotations.Nullable;

/**
 * The store under a {@link LocalTier}: a Caffeine cache held within the tier's bounds (entries
 * and bytes, as one weight), each copy living until its own expiry, and the count of evictions.
 *
 * <p>Apart from the tier because none of it decides whether a copy may be kept or served: that is
 * the tier's rule (versions, epoch, own writes), applied in the tier's {@code compute} on the key.
 * This class only sizes, expires and evicts what the tier decided to keep, and knows Caffeine
 * (optional on the classpath) so that the tier's rule reads without it.
 */
final class BoundedStore {

    private final Cache<String, Entry> entries;
    private final LongAdder evictions = new LongAdder();

    /**
     * A store within the settings' bounds.
     * @param settings the bounds
     */
    BoundedStore(NearCacheSettings settings) {
        // Maintenance (eviction, expiry) on the calling threads, a little at a time: the bound holds at once, and the
        // tier needs no pool of its own nor the common pool.
        // Caffeine takes one bound, so both are held as one weight: each entry weighs at least the weight bound's share of
        // one entry, so that no more entries than the entry bound fit, and at least its bytes, so that no more bytes do.
        long maximumWeight = settings.maximumWeightBytes();
        long minimumWeight = settings.maximumEntries() > 0 ? Math.max(1, maximumWeight / settings.maximumEntries()) : 0;
        this.entries = Caffeine.newBuilder().executor(Runnable::run).maximumWeight(maximumWeight)
                .<String, Entry>weigher((key, entry) -> weigh(key, entry, minimumWeight))
                .evictionListener((key, entry, cause) -> {
                    if (cause.wasEvicted()) {
                        evictions.increment();
                    }
                })
                .expireAfter(new UntilExpiry())
                .build();
    }

    private static int weigh(String key, Entry entry, long minimumWeight) {
        long weight = Math.max(LocalTier.ENTRY_OVERHEAD_BYTES + 2L * key.length() + entry.value().length, minimumWeight);
        return (int) Math.min(weight, Integer.MAX_VALUE);
    }

    /** The key's copy if one is held and not expired, whatever its epoch: the tier judges that. */
    @Nullable Entry getIfPresent(String key) {
        return entries.getIfPresent(key);
    }

    /** The copies as a map, for the tier's atomic {@code compute} on a key. */
    ConcurrentMap<String, Entry> asMap() {
        return entries.asMap();
    }

    /** Drops every copy. */
    void invalidateAll() {
        entries.invalidateAll();
    }

    /** About how many copies are held. */
    long estimatedSize() {
        return entries.estimatedSize();
    }

    /** How many copies were evicted to hold the bounds (not expired, invalidated or replaced). */
    long evictions() {
        return evictions.sum();
    }

    /** Runs Caffeine's pending maintenance (eviction, expiry) now; for tests. */
    void cleanUp() {
        entries.cleanUp();
    }

    /** The weight Caffeine counts for the held copies, or -1 when the store is not bounded by weight; for tests. */
    long weightedSize() {
        return entries.policy().eviction().map(eviction -> eviction.weightedSize().orElse(-1)).orElse(-1L);
    }

    /**
     * Each copy lives until its own expiry: the time to live from when its read was sent (not from
     * when the reply came), or the key's expiry on the server if earlier. Caffeine's clock is
     * {@link System#nanoTime()}, as the entries' times are.
     */
    private static final class UntilExpiry implements Expiry<String, Entry> {

        @Override
        public long expireAfterCreate(String key, Entry entry, long currentTime) {
            return Math.max(0, entry.expiresAtNanos() - currentTime);
        }

        @Override
        public long expireAfterUpdate(String key, Entry entry, long currentTime, long currentDuration) {
            return expireAfterCreate(key, entry, currentTime);
        }

        @Override
        public long expireAfterRead(String key, Entry entry, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }
}
