package io.adaptivecache.near;

import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

/**
 * The local copies of one near cache, on Caffeine, and the rule that keeps them correct: a value
 * read from the server is kept only if nothing that could make it stale happened while the read
 * was on its way.
 *
 * <p><b>Versions and epoch.</b> Before a read is sent, the caller takes the key's
 * {@linkplain #version(String) version} (a counter per stripe of keys, bumped by every
 * invalidation of a key in the stripe) and the {@linkplain #epoch() epoch} (bumped by every
 * flush). {@link #keep} stores the reply only if both are unchanged, atomically with respect to
 * an invalidation of the same key: both run in a {@code compute} on the key, so either the
 * invalidation comes first and the store sees the new version, or the store comes first and the
 * invalidation removes what it stored. A flush cannot take every key's lock, so each entry
 * carries the epoch it was read under and {@link #lookup} ignores entries of an older epoch.
 *
 * <p>Stripes rather than a token per key: nothing to allocate, register or clean up per read,
 * and concurrent reads of a hot key do not cancel each other. Two keys sharing a stripe only cost
 * a skipped store (counted in {@code discardedLoads}), never a stale one.
 */
final class LocalTier implements InvalidationListener {

    /** Stripes of versions, a power of two; 32 KiB of counters. */
    private static final int STRIPES = 1 << 12;

    /** Per-entry weight beyond key and value: the entry object, the map node, the timer-wheel links. */
    static final int ENTRY_OVERHEAD_BYTES = 64;

    /** A write sampled for the invalidation lag whose invalidation has not come by then is given up. */
    private static final long LAG_SAMPLE_EXPIRY_NANOS = 1_000_000_000L;

    /** Drops a key's entry; non-capturing, so an invalidation allocates nothing for it. */
    private static final BiFunction<String, Entry, Entry> REMOVE = (key, entry) -> null;

    private final Cache<String, Entry> entries;
    private final ConcurrentMap<String, Entry> map;
    private final AtomicLongArray versions = new AtomicLongArray(STRIPES);
    private final AtomicLong epoch = new AtomicLong();
    private final KeyPrefixes prefixes;
    private final AtomicReference<LagSample> lagSample = new AtomicReference<>();

    final LongAdder localHits = new LongAdder();
    final LongAdder localMisses = new LongAdder();
    final LongAdder bypassedReads = new LongAdder();
    final LongAdder remoteHits = new LongAdder();
    final LongAdder remoteMisses = new LongAdder();
    private final LongAdder remoteWrites = new LongAdder();
    private final LongAdder localPuts = new LongAdder();
    private final LongAdder discardedLoads = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder serverInvalidations = new LongAdder();
    private final LongAdder writeInvalidations = new LongAdder();
    private final LongAdder flushes = new LongAdder();
    private final LongAdder lagCount = new LongAdder();
    private final LongAdder lagTotalNanos = new LongAdder();
    private final AtomicLong lagMaxNanos = new AtomicLong();

    LocalTier(NearCacheSettings settings, long timeToLiveNanos) {
        this.prefixes = KeyPrefixes.of(settings.keyPrefixes());
        // Maintenance (eviction, expiry) on the calling threads, a little at a time: the bound holds at once, and the
        // tier needs no pool of its own nor the common pool.
        Caffeine<Object, Object> builder = Caffeine.newBuilder().executor(Runnable::run);
        if (settings.maximumWeightBytes() > 0) {
            builder.maximumWeight(settings.maximumWeightBytes());
        }
        else {
            builder.maximumSize(settings.maximumEntries());
        }
        Caffeine<String, Entry> typed = builder.<String, Entry>evictionListener((key, entry, cause) -> {
            if (cause.wasEvicted()) {
                evictions.increment();
            }
        }).expireAfter(new FromSend(timeToLiveNanos));
        if (settings.maximumWeightBytes() > 0) {
            typed = typed.weigher(LocalTier::weigh);
        }
        this.entries = typed.build();
        this.map = entries.asMap();
    }

    private static int weigh(String key, Entry entry) {
        long weight = ENTRY_OVERHEAD_BYTES + 2L * key.length() + entry.value.length;
        return (int) Math.min(weight, Integer.MAX_VALUE);
    }

    /**
     * Whether the key is one this tier caches.
     * @param key the key, possibly {@code null} (then not: the template refuses it)
     * @return {@code true} if it falls under the tier's prefixes
     */
    boolean covers(String key) {
        return key != null && prefixes.covers(key);
    }

    /** The tier's prefixes. */
    KeyPrefixes prefixes() {
        return prefixes;
    }

    /**
     * The key's local copy, if there is a current one.
     * @return the entry, or {@code null}
     */
    Entry lookup(String key) {
        Entry entry = entries.getIfPresent(key);
        if (entry == null) {
            return null;
        }
        if (entry.epoch != epoch.get()) {
            // Read before a flush and stored after it: never served, and dropped now to free the room.
            map.remove(key, entry);
            return null;
        }
        return entry;
    }

    /**
     * The key's version, to take before its read is sent.
     * @return the version of the key's stripe
     */
    long version(String key) {
        return versions.get(stripe(key));
    }

    /**
     * The epoch, to take before a read is sent.
     * @return the number of flushes so far
     */
    long epoch() {
        return epoch.get();
    }

    /**
     * Keeps a value read from the server unless the key was invalidated, or the tier flushed,
     * since the read was sent.
     * @param key the key
     * @param value the value read, which the tier keeps as it is (the caller copies it)
     * @param versionAtSend {@link #version} taken before the read was sent
     * @param epochAtSend {@link #epoch} taken before the read was sent
     * @param sentAtNanos {@link System#nanoTime()} before the read was sent: the copy's age counts from here
     */
    void keep(String key, byte[] value, long versionAtSend, long epochAtSend, long sentAtNanos) {
        int stripe = stripe(key);
        Entry fresh = new Entry(value, epochAtSend, sentAtNanos);
        Entry kept = map.compute(key, (k, old) -> {
            if (versions.get(stripe) != versionAtSend || epoch.get() != epochAtSend) {
                return old;
            }
            // Of two reads in flight together, keep the one sent later: it cannot have seen less.
            return old != null && old.epoch == epochAtSend && old.sentAtNanos - sentAtNanos > 0 ? old : fresh;
        });
        if (kept == fresh) {
            localPuts.increment();
        }
        else {
            discardedLoads.increment();
        }
    }

    /** The server says the key changed. */
    @Override
    public void invalidate(String key) {
        if (!covers(key)) {
            return;
        }
        drop(key);
        serverInvalidations.increment();
        LagSample sample = lagSample.get();
        if (sample != null && sample.key.equals(key) && lagSample.compareAndSet(sample, null)) {
            long lag = System.nanoTime() - sample.sentAtNanos;
            lagCount.increment();
            lagTotalNanos.add(lag);
            lagMaxNanos.accumulateAndGet(lag, Math::max);
        }
    }

    /**
     * A write of the key through this near cache is about to be sent: drops the local copy and
     * makes reads in flight not keep theirs, so that this instance stops serving the old value
     * at once.
     * @param key the key
     */
    void beforeWrite(String key) {
        drop(key);
        writeInvalidations.increment();
        remoteWrites.increment();
        sampleLag(key);
    }

    /**
     * A write of the key through this near cache has completed (or failed, perhaps after the
     * server applied it): drops again whatever a read that overlapped the write kept, so that no
     * read of this instance that starts after the write returns the old value.
     * @param key the key
     */
    void afterWrite(String key) {
        drop(key);
    }

    private void drop(String key) {
        // The version first, then the key's lock: a store that takes the lock after this sees the new version.
        versions.incrementAndGet(stripe(key));
        // compute, not remove: remove skips an absent key without taking its lock, and a store could then slip in after.
        map.compute(key, REMOVE);
    }

    private void sampleLag(String key) {
        LagSample current = lagSample.get();
        long now = System.nanoTime();
        if (current == null || now - current.sentAtNanos > LAG_SAMPLE_EXPIRY_NANOS) {
            lagSample.compareAndSet(current, new LagSample(key, now));
        }
    }

    /** Every local copy goes, and no read in flight may store. */
    @Override
    public void invalidateAll() {
        epoch.incrementAndGet();
        flushes.increment();
        lagSample.set(null);
        entries.invalidateAll();
    }

    /** Drops every copy without counting a flush, when the near cache closes. */
    void clear() {
        epoch.incrementAndGet();
        entries.invalidateAll();
    }

    NearCacheStats stats() {
        return new NearCacheStats(localHits.sum(), localMisses.sum(), bypassedReads.sum(), remoteHits.sum(), remoteMisses.sum(),
                localPuts.sum(), discardedLoads.sum(), evictions.sum(), serverInvalidations.sum(), writeInvalidations.sum(),
                flushes.sum(), entries.estimatedSize(), remoteWrites.sum(), lagCount.sum(), lagTotalNanos.sum(), lagMaxNanos.get());
    }

    private static int stripe(String key) {
        int hash = key.hashCode();
        return (hash ^ (hash >>> 16)) & (STRIPES - 1);
    }

    /**
     * One local copy. Absences are never kept: a template in DEGRADE mode answers a failed read
     * as a miss, which is no proof that the key is absent.
     * @param value the value
     * @param epoch the epoch the read was sent under
     * @param sentAtNanos when the read was sent
     */
    record Entry(byte[] value, long epoch, long sentAtNanos) {
    }

    private record LagSample(String key, long sentAtNanos) {
    }

    /** Each copy lives the time to live from when its read was sent, not from when the reply came. */
    private record FromSend(long timeToLiveNanos) implements Expiry<String, Entry> {

        @Override
        public long expireAfterCreate(String key, Entry entry, long currentTime) {
            return Math.max(0, timeToLiveNanos - (currentTime - entry.sentAtNanos));
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
