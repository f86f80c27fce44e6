package io.adaptivecache.near;

import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BiFunction;

import io.adaptivecache.near.LocalTier.Entry;
import io.adaptivecache.near.LocalTier.ExpiryAnswer;
import io.adaptivecache.near.LocalTier.WriteTicket;
import org.jspecify.annotations.Nullable;

/**
 * The rule that keeps a {@link LocalTier}'s copies correct: a value is stored only if nothing that
 * could make it stale happened while its read (or own write) was on its way.
 *
 * <p><b>Versions and epoch.</b> Before a read is sent, the caller takes the key's
 * {@linkplain #version(int) version} (a counter per stripe of keys, bumped by every invalidation
 * of a key in the stripe) and the {@linkplain #epoch() epoch} (bumped by every flush).
 * {@link #keep} stores the reply only if both are unchanged, atomically with respect to an
 * invalidation of the same key: both run in a {@code compute} on the key, so either the
 * invalidation comes first and the store sees the new version, or the store comes first and the
 * invalidation removes what it stored. A flush cannot take every key's lock, so each entry carries
 * the epoch it was read under and {@link #lookup} ignores entries of an older epoch.
 *
 * <p>Stripes rather than a token per key: nothing to allocate, register or clean up per read,
 * and concurrent reads of a hot key do not cancel each other. Two keys sharing a stripe only cost
 * a skipped store (counted in {@code discardedLoads}), never a stale one.
 *
 * <p>Apart from the tier, which decides which keys, counts and tells this class what happened,
 * so that every store, drop and flush of the copies, and the order of their steps that the rule
 * depends on, read in one place. The copies themselves are held by a {@link BoundedStore}.
 */
final class VersionedCopies {

    /** Drops a key's entry; non-capturing, so an invalidation allocates nothing for it. */
    private static final BiFunction<String, Entry, Entry> REMOVE = (key, entry) -> null;

    private final BoundedStore entries;
    private final ConcurrentMap<String, Entry> map;
    private final AtomicLongArray versions = new AtomicLongArray(LocalTier.STRIPES);
    private final AtomicLong epoch = new AtomicLong();

    /**
     * The rule over a store.
     * @param entries the store the copies are held in
     */
    VersionedCopies(BoundedStore entries) {
        this.entries = entries;
        this.map = entries.asMap();
    }

    /** The key's copy if it is of the current epoch, else {@code null}. */
    @Nullable Entry lookup(String key) {
        Entry entry = entries.getIfPresent(key);
        if (entry == null) {
            return null;
        }
        if (entry.epoch() != epoch.get()) {
            // Read before a flush and stored after it: never served, and dropped now to free the room.
            map.remove(key, entry);
            return null;
        }
        return entry;
    }

    /** The version of a stripe. */
    long version(int stripe) {
        return versions.get(stripe);
    }

    /** The number of flushes so far. */
    long epoch() {
        return epoch.get();
    }

    /**
     * Stores a value read unless its stripe's version or the epoch changed since it was sent, or
     * a later read of the key was stored, or it expired (as capped by the answer, if it came).
     * @param expiresAt {@link System#nanoTime()} after which the copy must not be served, as far as known when sent
     * @param answer the key's expiry on the server once it has been said, or {@code null}
     * @return whether this value is now the key's copy
     */
    boolean keep(String key, byte[] value, long versionAtSend, long epochAtSend, long sentAtNanos, long expiresAt,
            @Nullable ExpiryAnswer answer) {
        int stripe = LocalTier.stripe(key);
        Entry kept = map.compute(key, (k, old) -> {
            if (versions.get(stripe) != versionAtSend || epoch.get() != epochAtSend) {
                return old;
            }
            boolean current = old != null && old.epoch() == epochAtSend;
            // Of two reads in flight together, keep the one sent later: it cannot have seen less.
            if (current && old.sentAtNanos() - sentAtNanos > 0) {
                return old;
            }
            long until = answer != null && answer.known ? LocalTier.earlier(expiresAt, answer.expiresAtNanos) : expiresAt;
            if (until - System.nanoTime() <= 0) {
                return old;
            }
            return new Entry(value, epochAtSend, sentAtNanos, until);
        });
        return kept != null && kept.value() == value;
    }

    /**
     * Stores a completed own set's value if the own-write counts and the epoch are unchanged since
     * its ticket was taken (see {@link OwnWrites}), and drops the key otherwise.
     * @return whether this value is now the key's copy
     */
    boolean keepOwnWrite(String key, OwnWrites ownWrites, WriteTicket ticket, byte[] written, long expiry) {
        Entry kept = map.compute(key, (k, old) -> {
            if (!ownWrites.unchangedSince(ticket) || epoch.get() != ticket.epoch() || expiry - System.nanoTime() <= 0) {
                return null;
            }
            // No report came: the one of this set's cycle, which may also stand for later writes, is still to come.
            return new Entry(written, ticket.epoch(), ticket.sentAtNanos(), expiry);
        });
        return kept != null && kept.value() == written;
    }

    /** Brings forward the expiry of that very copy (the same array), dropping it if that is past. */
    void capExpiry(String key, byte[] value, long expiresAtNanos) {
        // compute, not computeIfPresent: that skips a key being stored without taking its lock, so that a store in
        // progress, which has read no answer yet, would be left uncapped.
        map.compute(key, (k, entry) -> {
            if (entry == null || entry.value() != value) {
                return entry;
            }
            long expiresAt = LocalTier.earlier(entry.expiresAtNanos(), expiresAtNanos);
            return expiresAt - System.nanoTime() <= 0 ? null : new Entry(value, entry.epoch(), entry.sentAtNanos(), expiresAt);
        });
    }

    /** Bumps a stripe's version: reads of its keys in flight keep nothing. */
    void bump(int stripe) {
        versions.incrementAndGet(stripe);
    }

    /** Drops the key's copy, and makes reads of its stripe in flight keep nothing. */
    void drop(String key) {
        // The version first, then the key's lock: a store that takes the lock after this sees the new version.
        versions.incrementAndGet(LocalTier.stripe(key));
        // compute, not remove: remove skips an absent key without taking its lock, and a store could then slip in after.
        map.compute(key, REMOVE);
    }

    /** A new epoch: no copy of an older one is served, and no read sent before stores; the caller then clears the store. */
    void newEpoch() {
        epoch.incrementAndGet();
    }
}
