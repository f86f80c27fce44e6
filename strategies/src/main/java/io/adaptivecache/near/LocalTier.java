package io.adaptivecache.near;

import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

/**
 * The local copies of one near cache, on Caffeine, and the rule that keeps them correct: a value
 * read from the server is kept only if nothing that could make it stale happened while the read
 * was on its way.
 *
 * <p><b>Versions and epoch.</b> Before a read is sent, the caller takes the key's
 * {@linkplain #version(String) version} (bumped by every invalidation of a key in its stripe) and
 * the {@linkplain #epoch() epoch} (bumped by every flush); {@link #keep} stores the reply only if
 * both are unchanged, atomically with respect to an invalidation of the same key. The rule and the
 * order of its steps are {@link VersionedCopies}'s.
 *
 * <p><b>Own writes</b> ({@linkplain #LocalTier(NearCacheSettings, long, boolean) write-through},
 * for a tier whose server reports every write of its keys). A {@code set} that completed may keep
 * its own value locally until the next report of the key, if no report of its stripe, no other own
 * write of the stripe and no flush came while it was on its way; {@link OwnWrites} counts those and
 * says why that is safe.
 *
 * <p><b>Expiry.</b> A copy lives until the earlier of the tier's time to live, counted from when
 * its read (or write) was sent, and the key's expiry on the server when the caller knows it
 * ({@link #keep(String, byte[], long, long, long, long)}): Redis reports an expiry only when it
 * deletes the key, which it may do long after it expired.
 *
 * <p><b>Parts.</b> This class is what the near cache talks to: which keys, the counters, and
 * what happened (reads, writes, reports, flushes). It tells {@link VersionedCopies} (the rule, over
 * a {@link BoundedStore}) and {@link OwnWrites} (the own-write counts), and samples the
 * {@link InvalidationLag}; each has its reason there.
 */
final class LocalTier implements InvalidationListener {

    /** Stripes of versions (and of the own-write counts), a power of two; 32 KiB of counters. */
    static final int STRIPES = 1 << 12;

    /** Per-entry weight beyond key and value: the entry object, the map node, the timer-wheel links. */
    static final int ENTRY_OVERHEAD_BYTES = 64;

    private final BoundedStore entries;
    private final VersionedCopies copies;
    private final boolean writeThrough;
    private final long timeToLiveNanos;
    /** Counted only by a write-through tier. */
    private final OwnWrites ownWrites;
    private final KeyPrefixes prefixes;
    private final InvalidationLag lag = new InvalidationLag();

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
    private final LongAdder serverInvalidations = new LongAdder();
    private final LongAdder writeInvalidations = new LongAdder();
    private final LongAdder flushes = new LongAdder();

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
        this.entries = new BoundedStore(settings);
        this.copies = new VersionedCopies(this.entries);
        this.ownWrites = new OwnWrites(this.copies);
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
    @Nullable Entry lookup(String key) {
        return copies.lookup(key);
    }

    /**
     * The key's version, to take before its read is sent.
     * @return the version of the key's stripe
     */
    long version(String key) {
        return copies.version(stripe(key));
    }

    /**
     * The epoch, to take before a read is sent.
     * @return the number of flushes so far
     */
    long epoch() {
        return copies.epoch();
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
        if (copies.keep(key, value, versionAtSend, epochAtSend, sentAtNanos, expiresAt, answer)) {
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
        copies.capExpiry(key, value, expiresAtNanos);
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
            ownWrites.reported(stripe(key));
        }
        drop(key);
        serverInvalidations.increment();
        lag.reported(key);
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
            ownWrites.writeStarted(stripe(key));
        }
        drop(key);
        writeInvalidations.increment();
        remoteWrites.increment();
        lag.written(key);
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
            ownWrites.writeEnded(stripe(key));
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
        lag.written(key);
        return ownWrites.setStarted(stripe(key));
    }

    /**
     * A {@code set} through this near cache has completed or failed. A completed one keeps its
     * value until the next report of the key when no report of its stripe came and no other own
     * write of the stripe overlapped it since {@link #beforeSet} (see {@link OwnWrites}); otherwise,
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
        ownWrites.writeEnded(ticket.stripe);
        if (written == null || ticket.overlapped) {
            drop(key);
            return;
        }
        // Reads sent before the write completed may have read the old value: they must not keep it.
        copies.bump(ticket.stripe);
        // The server's expiry is at least the TTL after the set was sent (the template rounds it up to milliseconds).
        long expiresAt = ticket.sentAtNanos + timeToLiveNanos;
        if (serverTtlNanos > 0) {
            expiresAt = earlier(expiresAt, ticket.sentAtNanos + serverTtlNanos);
        }
        if (copies.keepOwnWrite(key, ownWrites, ticket, written, expiresAt)) {
            localPuts.increment();
            ownWritesKept.increment();
        }
    }

    /** The earlier of two {@link System#nanoTime()} readings, as their difference says (they may wrap). */
    static long earlier(long a, long b) {
        return a - b <= 0 ? a : b;
    }

    private void drop(String key) {
        copies.drop(key);
    }

    /** Every local copy goes, and no read in flight may store. */
    @Override
    public void invalidateAll() {
        copies.newEpoch();
        flushes.increment();
        lag.flushed();
        entries.invalidateAll();
    }

    /** Drops every copy without counting a flush, when the near cache closes. */
    void clear() {
        copies.newEpoch();
        entries.invalidateAll();
    }

    NearCacheStats stats() {
        return new NearCacheStats(localHits.sum(), localMisses.sum(), bypassedReads.sum(), remoteHits.sum(), remoteMisses.sum(),
                localPuts.sum(), discardedLoads.sum(), entries.evictions(), serverInvalidations.sum(), writeInvalidations.sum(),
                flushes.sum(), entries.estimatedSize(), remoteWrites.sum(), lag.count(), lag.totalNanos(), lag.maxNanos());
    }

    /** Runs Caffeine's pending maintenance (eviction, expiry) now; for tests. */
    void cleanUp() {
        entries.cleanUp();
    }

    /** The weight Caffeine counts for the held copies, or -1 when the tier is not bounded by weight; for tests. */
    long weightedSize() {
        return entries.weightedSize();
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

        /** Read by {@link VersionedCopies#keep} under the key's lock. */
        volatile long expiresAtNanos;
        volatile boolean known;

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
}
