package io.adaptivecache.near;

import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import org.jspecify.annotations.Nullable;

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
 *
 * <p><b>Own writes</b> ({@linkplain #LocalTier(NearCacheSettings, long, boolean) write-through},
 * for a tier whose server reports every write, in order, on one connection). A {@code set} that
 * completed keeps its own value locally, marked as awaiting its <em>echo</em>: the server's report
 * of that very write, which would otherwise drop the copy just stored and cost the next read a
 * round trip. The first report of the key after the store is taken as the echo and leaves the copy
 * (now unmarked); every later one drops it. This is safe because the server sends reports in the
 * order it executed the writes: the echo comes before the report of any later write, so the report
 * taken as the echo is the echo itself or the report of an older write, and the copy is at least as
 * new as either. The echo often overtakes the write's reply (the two come on different
 * connections): when one report of the key's stripe arrived while the write was on its way, it was
 * the echo or an older write's (a later write's report comes after the echo, so it cannot have come
 * alone), and the value is kept unmarked, so that the next report drops it. The value is not kept
 * when two or more reports came meanwhile (the echo and a later write's may be among them), when
 * another write of this instance in the stripe overlapped it (two writes may execute in either
 * order), or after a flush; the check runs under the key's lock, where a report of the key also
 * runs after counting itself. Reports are counted per stripe, which errs on the side of keeping
 * less. Otherwise the write drops the key as every other write does.
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

    /** A report of the key: the echo an own write's copy awaits leaves it (unmarked); any other drops it. */
    private static final BiFunction<String, Entry, Entry> ECHO_OR_REMOVE = (key, entry) -> entry != null && entry.awaitsEcho
            ? new Entry(entry.value, entry.epoch, entry.sentAtNanos, false) : null;

    private final Cache<String, Entry> entries;
    private final ConcurrentMap<String, Entry> map;
    private final AtomicLongArray versions = new AtomicLongArray(STRIPES);
    /** The server's reports per stripe: a write keeps its value only if at most one came while it was on its way. */
    private final AtomicLongArray reports = new AtomicLongArray(STRIPES);
    /** This instance's writes started, and in flight, per stripe: overlapping writes keep nothing. */
    private final AtomicLongArray writesStarted = new AtomicLongArray(STRIPES);
    private final AtomicIntegerArray writesInFlight = new AtomicIntegerArray(STRIPES);
    private final boolean writeThrough;
    private final long timeToLiveNanos;
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
    /** Own writes whose value was kept (also counted in {@code localPuts}); for tests. */
    final LongAdder ownWritesKept = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder serverInvalidations = new LongAdder();
    private final LongAdder writeInvalidations = new LongAdder();
    private final LongAdder flushes = new LongAdder();
    private final LongAdder lagCount = new LongAdder();
    private final LongAdder lagTotalNanos = new LongAdder();
    private final AtomicLong lagMaxNanos = new AtomicLong();

    /**
     * A tier whose own writes only drop their key.
     * @param settings the bounds and prefixes
     * @param timeToLiveNanos the longest a copy lives, from when its read was sent
     */
    LocalTier(NearCacheSettings settings, long timeToLiveNanos) {
        this(settings, timeToLiveNanos, false);
    }

    /**
     * A tier.
     * @param settings the bounds and prefixes
     * @param timeToLiveNanos the longest a copy lives, from when its read (or write) was sent
     * @param writeThrough whether a completed {@code set} keeps its value, awaiting its echo: only
     *        for a server that reports every write of the tier's keys, in order, and a template
     *        whose writes that return normally were executed (not skipped, as in DEGRADE mode)
     */
    LocalTier(NearCacheSettings settings, long timeToLiveNanos, boolean writeThrough) {
        this.writeThrough = writeThrough;
        this.timeToLiveNanos = timeToLiveNanos;
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

    /** The longest a local copy lives. */
    long timeToLiveNanos() {
        return timeToLiveNanos;
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
        Entry kept = map.compute(key, (k, old) -> {
            if (versions.get(stripe) != versionAtSend || epoch.get() != epochAtSend) {
                return old;
            }
            boolean current = old != null && old.epoch == epochAtSend;
            // Of two reads in flight together, keep the one sent later: it cannot have seen less.
            if (current && old.sentAtNanos - sentAtNanos > 0) {
                return old;
            }
            // Replacing an own write's copy still awaiting its echo: this read was sent after that write completed (a
            // version bump since would have stopped it), so it is at least as new, and the echo is still to come.
            return new Entry(value, epochAtSend, sentAtNanos, current && old.awaitsEcho);
        });
        if (kept != null && kept.value == value) {
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
        if (writeThrough) {
            int stripe = stripe(key);
            // Counted before the key's lock: an own write's store that takes the lock after this sees it and keeps nothing.
            reports.incrementAndGet(stripe);
            versions.incrementAndGet(stripe);
            map.compute(key, ECHO_OR_REMOVE);
        }
        else {
            drop(key);
        }
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

    /**
     * A {@code set} of the key through this near cache is about to be sent. A tier that does not
     * write through drops the key as {@link #beforeWrite} does. A write-through tier leaves the
     * current copy to be served while the write is on its way (a read that overlaps a write may
     * return either value; {@link #afterSet} replaces or drops the copy before the write returns, so
     * no read that starts after it sees the old value), which spares the callers of a hot key a
     * round trip each during every write of it; and notes what the write sees now, for
     * {@link #afterSet} to decide whether its value may be kept.
     * @param key the key
     * @return the ticket for {@link #afterSet}, or {@code null} if the tier does not write through
     */
    @Nullable WriteTicket beforeSet(String key) {
        if (!writeThrough) {
            beforeWrite(key);
            return null;
        }
        writeInvalidations.increment();
        remoteWrites.increment();
        sampleLag(key);
        int stripe = stripe(key);
        boolean overlapped = writesInFlight.getAndIncrement(stripe) > 0;
        long started = writesStarted.incrementAndGet(stripe);
        return new WriteTicket(stripe, reports.get(stripe), started, epoch.get(), overlapped, System.nanoTime());
    }

    /**
     * A {@code set} through this near cache has completed or failed. A completed one keeps its
     * value, awaiting its echo, when nothing since {@link #beforeSet} could have let the echo
     * through already or reorder it (see the class comment); otherwise, and after a failure, as
     * {@link #afterWrite}.
     * @param key the key
     * @param ticket from {@link #beforeSet}, or {@code null}
     * @param written the value the server now holds, which the tier keeps as it is (the caller
     *        copies it), or {@code null} if the write failed or is not to be kept
     */
    void afterSet(String key, @Nullable WriteTicket ticket, byte @Nullable [] written) {
        if (ticket == null) {
            drop(key);
            return;
        }
        writesInFlight.decrementAndGet(ticket.stripe);
        if (written == null || ticket.overlapped) {
            drop(key);
            return;
        }
        // Reads sent before the write completed may have read the old value: they must not keep it.
        versions.incrementAndGet(ticket.stripe);
        Entry kept = map.compute(key, (k, old) -> {
            long reportsMeanwhile = reports.get(ticket.stripe) - ticket.reports;
            if (reportsMeanwhile > 1 || writesStarted.get(ticket.stripe) != ticket.started || epoch.get() != ticket.epoch) {
                return null;
            }
            // None came: the echo is still to come. One came: it was the echo, or an older write's and the echo drops this.
            return new Entry(written, ticket.epoch, ticket.sentAtNanos, reportsMeanwhile == 0);
        });
        if (kept != null && kept.value == written) {
            localPuts.increment();
            ownWritesKept.increment();
        }
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

    static int stripe(String key) {
        int hash = key.hashCode();
        return (hash ^ (hash >>> 16)) & (STRIPES - 1);
    }

    /**
     * One local copy. Absences are never kept: a template in DEGRADE mode answers a failed read
     * as a miss, which is no proof that the key is absent.
     * @param value the value
     * @param epoch the epoch the read was sent under
     * @param sentAtNanos when the read was sent
     * @param awaitsEcho whether it is an own write's value whose echo (the server's report of that
     *        write) has not come yet
     */
    record Entry(byte[] value, long epoch, long sentAtNanos, boolean awaitsEcho) {
    }

    /**
     * What an own {@code set} saw when it was sent.
     * @param stripe its key's stripe
     * @param reports the server's reports for the stripe so far
     * @param started this instance's writes started in the stripe, this one included
     * @param epoch the flushes so far
     * @param overlapped whether another own write in the stripe was in flight
     * @param sentAtNanos when it was sent: its copy's age counts from here
     */
    record WriteTicket(int stripe, long reports, long started, long epoch, boolean overlapped, long sentAtNanos) {
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
