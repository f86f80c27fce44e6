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
 * for a tier whose server reports every write of its keys). A {@code set} that completed may keep
 * its own value locally, so that the next read of this instance needs no round trip, but only until
 * the next report of the key, which drops it like every report: its own <em>echo</em> (the server's
 * report of that very write) included. No report is taken for the echo alone, because Redis does
 * not report per write: it collects the keys written during one cycle of its event loop and sends
 * one report of them before it sleeps, so that this set and another client's write of the key in
 * the same cycle (a {@code SET}, {@code DEL}, {@code INCR}, {@code EXPIRE}) come as one report, the
 * same as the echo alone would.
 *
 * <p>The value is kept only if no report of the key's stripe came while the write was on its way
 * (counted from before it was sent to the store, which runs under the key's lock, where a report of
 * the key also runs after counting itself), no other write of this instance in the stripe (of any
 * kind: set, delete, add, replace, cas, incr, decr, touch) overlapped it, and no flush came. Why that
 * is safe: the server executed the set at some moment between its sending and its reply, and
 * reports it, and any write of the key executed after it, no earlier than in the report of the
 * cycle that executed the set. No report came before the store, so that report is still to come,
 * and it drops the copy: until then the server held the value written, or a write after it is not
 * yet reported, exactly as for a value read from the server and kept (a copy of a read is
 * dropped by the same report). A report that came while the write was on its way may have been the
 * echo and a later write's together: nothing is kept. An own write of the key overlapping it may
 * have run after it, and returned before it: nothing is kept, so that a read of this instance
 * that starts after that write returned cannot see the set's value. Reports and writes are counted
 * per stripe, which errs on the side of keeping less. Otherwise the set drops the key as every
 * other write does.
 *
 * <p><b>Expiry.</b> A copy lives until the earlier of the tier's time to live, counted from when
 * its read (or write) was sent, and the key's expiry on the server when the caller knows it
 * ({@link #keep(String, byte[], long, long, long, long)}): Redis reports an expiry only when it
 * deletes the key, which it may do long after it expired.
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
    /** The server's reports per stripe: an own set keeps its value only if none came while it was on its way. */
    private final AtomicLongArray reports = new AtomicLongArray(STRIPES);
    /** This instance's writes (of every kind) started, and in flight, per stripe: a set overlapping any keeps nothing. */
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
     * @param writeThrough whether a completed {@code set} may keep its value until the next report
     *        of its key: only for a server that reports every write of the tier's keys, and a
     *        template whose writes that return normally were executed (not skipped, as in DEGRADE mode)
     */
    LocalTier(NearCacheSettings settings, long timeToLiveNanos, boolean writeThrough) {
        this.writeThrough = writeThrough;
        this.timeToLiveNanos = timeToLiveNanos;
        this.prefixes = KeyPrefixes.of(settings.keyPrefixes());
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
        this.map = entries.asMap();
    }

    private static int weigh(String key, Entry entry, long minimumWeight) {
        long weight = Math.max(ENTRY_OVERHEAD_BYTES + 2L * key.length() + entry.value.length, minimumWeight);
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
        keep(key, value, versionAtSend, epochAtSend, sentAtNanos, sentAtNanos + timeToLiveNanos);
    }

    /**
     * Keeps a value read from the server, as {@link #keep(String, byte[], long, long, long)} does,
     * until at most the given moment (the key's expiry on the server, as far as the caller knows).
     * @param key the key
     * @param value the value read, which the tier keeps as it is (the caller copies it)
     * @param versionAtSend {@link #version} taken before the read was sent
     * @param epochAtSend {@link #epoch} taken before the read was sent
     * @param sentAtNanos {@link System#nanoTime()} before the read was sent: the copy's age counts from here
     * @param expiresAtNanos {@link System#nanoTime()} after which the copy must not be served, if
     *        earlier than the tier's time to live allows
     */
    void keep(String key, byte[] value, long versionAtSend, long epochAtSend, long sentAtNanos, long expiresAtNanos) {
        keep(key, value, versionAtSend, epochAtSend, sentAtNanos, expiresAtNanos, null);
    }

    /**
     * Keeps a value read from the server, as {@link #keep(String, byte[], long, long, long)} does,
     * before the key's expiry on the server is known: the answer, once it came, caps the copy
     * atomically with the store. Whoever comes second of the store and the answer applies it: the
     * answer is set before {@link #capExpiry} takes the key's lock, and read here under that lock.
     * @param key the key
     * @param value the value read, which the tier keeps as it is (the caller copies it)
     * @param versionAtSend {@link #version} taken before the read was sent
     * @param epochAtSend {@link #epoch} taken before the read was sent
     * @param sentAtNanos {@link System#nanoTime()} before the read was sent: the copy's age counts from here
     * @param answer the key's expiry once the server has said it
     */
    void keep(String key, byte[] value, long versionAtSend, long epochAtSend, long sentAtNanos, ExpiryAnswer answer) {
        keep(key, value, versionAtSend, epochAtSend, sentAtNanos, sentAtNanos + timeToLiveNanos, answer);
    }

    private void keep(String key, byte[] value, long versionAtSend, long epochAtSend, long sentAtNanos, long expiresAtNanos,
            @Nullable ExpiryAnswer answer) {
        long expiresAt = earlier(sentAtNanos + timeToLiveNanos, expiresAtNanos);
        if (expiresAt - System.nanoTime() <= 0) {
            // Expired on its way (a slow read, or a key about to expire): nothing to keep.
            discardedLoads.increment();
            return;
        }
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
            long until = answer != null && answer.known ? earlier(expiresAt, answer.expiresAtNanos) : expiresAt;
            if (until - System.nanoTime() <= 0) {
                return old;
            }
            return new Entry(value, epochAtSend, sentAtNanos, until);
        });
        if (kept != null && kept.value == value) {
            localPuts.increment();
        }
        else {
            discardedLoads.increment();
        }
    }

    /**
     * Brings forward the expiry of a copy kept before its key's remaining time to live on the
     * server was known, now that it is; drops it if that time is past. Only that very copy (the
     * same array): a copy a later read or write replaced it with has its own.
     * @param key the key
     * @param value the array kept
     * @param expiresAtNanos {@link System#nanoTime()} after which the copy must not be served
     */
    void capExpiry(String key, byte[] value, long expiresAtNanos) {
        // compute, not computeIfPresent: that skips a key being stored without taking its lock, so that a store in
        // progress, which has read no answer yet, would be left uncapped.
        map.compute(key, (k, entry) -> {
            if (entry == null || entry.value != value) {
                return entry;
            }
            long expiresAt = earlier(entry.expiresAtNanos, expiresAtNanos);
            return expiresAt - System.nanoTime() <= 0 ? null : new Entry(value, entry.epoch, entry.sentAtNanos, expiresAt);
        });
    }

    /** A value read that is not kept for a reason the caller found (its key was rewritten or expired meanwhile). */
    void discarded() {
        discardedLoads.increment();
    }

    /** The server says the key changed. */
    @Override
    public void invalidate(String key) {
        if (!covers(key)) {
            return;
        }
        if (writeThrough) {
            // Counted before the key's lock: an own set's store that takes the lock after this sees it and keeps nothing.
            reports.incrementAndGet(stripe(key));
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
        if (writeThrough) {
            // Counted before anything is sent: a set in flight meanwhile, or one that starts before this completes, keeps
            // nothing. Every beforeWrite is paired with an afterWrite.
            int stripe = stripe(key);
            writesInFlight.incrementAndGet(stripe);
            writesStarted.incrementAndGet(stripe);
        }
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
        if (writeThrough) {
            writesInFlight.decrementAndGet(stripe(key));
        }
    }

    /**
     * A {@code set} of the key through this near cache is about to be sent. A tier that does not
     * write through, or is not serving, counts it and drops the key as {@link #beforeWrite} does
     * (once: the set is one write). A write-through tier leaves the
     * current copy to be served while the write is on its way (a read that overlaps a write may
     * return either value; {@link #afterSet} replaces or drops the copy before the write returns, so
     * no read that starts after it sees the old value), which spares the callers of a hot key a
     * round trip each during every write of it; and notes what the write sees now, for
     * {@link #afterSet} to decide whether its value may be kept.
     * @param key the key
     * @param serving whether the near cache serves locally now; a set while it does not keeps nothing
     * @return the ticket for {@link #afterSet}, or {@code null} if the set is to keep nothing
     */
    @Nullable WriteTicket beforeSet(String key, boolean serving) {
        if (!writeThrough || !serving) {
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
     * value until the next report of the key when no report of its stripe came and no other own
     * write of the stripe overlapped it since {@link #beforeSet} (see the class comment); otherwise,
     * and after a failure, it drops the key as {@link #afterWrite} does.
     * @param key the key
     * @param ticket from {@link #beforeSet}, or {@code null}
     * @param written the value the server now holds, which the tier keeps as it is (the caller
     *        copies it), or {@code null} if the write failed or is not to be kept
     * @param serverTtlNanos the time to live the set gave the key on the server, 0 for none: the
     *        copy lives no longer than that from when the set was sent
     */
    void afterSet(String key, @Nullable WriteTicket ticket, byte @Nullable [] written, long serverTtlNanos) {
        if (ticket == null) {
            afterWrite(key);
            return;
        }
        writesInFlight.decrementAndGet(ticket.stripe);
        if (written == null || ticket.overlapped) {
            drop(key);
            return;
        }
        // Reads sent before the write completed may have read the old value: they must not keep it.
        versions.incrementAndGet(ticket.stripe);
        // The server's expiry is at least the TTL after the set was sent (the template rounds it up to milliseconds).
        long expiresAt = ticket.sentAtNanos + timeToLiveNanos;
        if (serverTtlNanos > 0) {
            expiresAt = earlier(expiresAt, ticket.sentAtNanos + serverTtlNanos);
        }
        long expiry = expiresAt;
        Entry kept = map.compute(key, (k, old) -> {
            if (reports.get(ticket.stripe) != ticket.reports || writesStarted.get(ticket.stripe) != ticket.started
                    || epoch.get() != ticket.epoch || expiry - System.nanoTime() <= 0) {
                return null;
            }
            // No report came: the one of this set's cycle, which may also stand for later writes, is still to come.
            return new Entry(written, ticket.epoch, ticket.sentAtNanos, expiry);
        });
        if (kept != null && kept.value == written) {
            localPuts.increment();
            ownWritesKept.increment();
        }
    }

    private static long earlier(long a, long b) {
        return a - b <= 0 ? a : b;
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

    /** Runs Caffeine's pending maintenance (eviction, expiry) now; for tests. */
    void cleanUp() {
        entries.cleanUp();
    }

    /** The weight Caffeine counts for the held copies, or -1 when the tier is not bounded by weight; for tests. */
    long weightedSize() {
        return entries.policy().eviction().map(eviction -> eviction.weightedSize().orElse(-1)).orElse(-1L);
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
     * @param sentAtNanos when the read (or own set) was sent
     * @param expiresAtNanos when it expires: the tier's time to live from {@code sentAtNanos}, or the
     *        key's expiry on the server if earlier
     */
    record Entry(byte[] value, long epoch, long sentAtNanos, long expiresAtNanos) {
    }

    /**
     * A key's expiry on the server, as its answer comes for a copy kept before it did: set by the
     * answer before it {@linkplain #capExpiry caps} the copy, read by the store under the key's lock.
     */
    static final class ExpiryAnswer {

        private volatile long expiresAtNanos;
        private volatile boolean known;

        /**
         * The answer has come.
         * @param expiresAtNanos {@link System#nanoTime()} after which the copy must not be served
         */
        void set(long expiresAtNanos) {
            this.expiresAtNanos = expiresAtNanos;
            this.known = true;
        }
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

    /**
     * Each copy lives until its own expiry: the time to live from when its read was sent (not from
     * when the reply came), or the key's expiry on the server if earlier. Caffeine's clock is
     * {@link System#nanoTime()}, as the entries' times are.
     */
    private static final class UntilExpiry implements Expiry<String, Entry> {

        @Override
        public long expireAfterCreate(String key, Entry entry, long currentTime) {
            return Math.max(0, entry.expiresAtNanos - currentTime);
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
