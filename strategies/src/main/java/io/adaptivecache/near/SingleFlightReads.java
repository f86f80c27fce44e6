package io.adaptivecache.near;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.adaptivecache.CacheTemplate;
import org.jspecify.annotations.Nullable;

/**
 * The single-key read path of a {@link NearCachingTemplate}: a covered key, while serving, is
 * answered by a current local copy (as a copy of the array); otherwise the key's version and the
 * tier's epoch are taken, the read is sent, and the reply is kept ({@link ReadKeeping}) only if
 * neither changed meanwhile. While not serving, reads go to the server and nothing is kept.
 *
 * <p>A class of its own because the reads on their way ({@link Load}, one per key) are state that
 * only this path touches: the multi-key reads and the writes never join or lead one.
 */
final class SingleFlightReads {

    private final CacheTemplate remote;
    private final LocalTier tier;
    private final InvalidationSubscription subscription;
    private final long stalenessBoundNanos;
    private final ReadKeeping keeping;
    /** Reads on their way to the server, by key: at most one per key, removed when it completes. */
    private final ConcurrentHashMap<String, Load> loads = new ConcurrentHashMap<>();

    /**
     * The read path of one near cache.
     * @param remote the template behind it
     * @param tier its local tier
     * @param subscription says when the tier may serve
     * @param stalenessBoundNanos reads join a read on its way only if it was sent within this
     * @param keeping what a read may leave in the tier
     */
    SingleFlightReads(CacheTemplate remote, LocalTier tier, InvalidationSubscription subscription, long stalenessBoundNanos,
            ReadKeeping keeping) {
        this.remote = remote;
        this.tier = tier;
        this.subscription = subscription;
        this.stalenessBoundNanos = stalenessBoundNanos;
        this.keeping = keeping;
    }

    byte[] get(String key) {
        if (!tier.covers(key)) {
            return remote.get(key);
        }
        if (!subscription.isServing()) {
            tier.bypassedReads.increment();
            return keeping.countRemote(remote.get(key));
        }
        LocalTier.Entry entry = tier.lookup(key);
        if (entry != null) {
            tier.localHits.increment();
            return entry.value().clone();
        }
        tier.localMisses.increment();
        long version = tier.version(key);
        long epoch = tier.epoch();
        long sentAt = System.nanoTime();
        Load current = loads.get(key);
        if (current != null && current.answers(version, epoch, sentAt, stalenessBoundNanos)) {
            byte[] shared = current.await();
            if (shared != Load.FAILED) {
                return shared == null ? null : shared.clone();
            }
            // The other read failed: this one tries for itself.
            sentAt = System.nanoTime();
        }
        Load mine = new Load(version, epoch, sentAt);
        boolean leading = current == null ? loads.putIfAbsent(key, mine) == null : loads.replace(key, current, mine);
        byte[] value = null;
        boolean read = false;
        try {
            // The remaining time to live is asked before the read is sent, never after it.
            CompletableFuture<Long> ttl = keeping.askTimeToLive(key);
            value = keeping.countRemote(remote.get(key));
            keeping.keep(key, value, version, epoch, sentAt, ttl);
            read = true;
        }
        finally {
            settle(key, mine, leading, read, value);
        }
        return value;
    }

    CompletableFuture<byte[]> getAsync(String key) {
        if (!tier.covers(key)) {
            return remote.getAsync(key);
        }
        if (!subscription.isServing()) {
            tier.bypassedReads.increment();
            return remote.getAsync(key).thenApply(keeping::countRemote);
        }
        LocalTier.Entry entry = tier.lookup(key);
        if (entry != null) {
            tier.localHits.increment();
            return CompletableFuture.completedFuture(entry.value().clone());
        }
        tier.localMisses.increment();
        long version = tier.version(key);
        long epoch = tier.epoch();
        Load current = loads.get(key);
        if (current != null && current.answers(version, epoch, System.nanoTime(), stalenessBoundNanos)) {
            return current.result.thenCompose(shared -> shared != Load.FAILED
                    ? CompletableFuture.completedFuture(shared == null ? null : shared.clone())
                    : loadAsync(key, version, epoch, null));
        }
        return loadAsync(key, version, epoch, current);
    }

    /** A read of the key from the server, leading the reads that start while it is on its way if it can. */
    private CompletableFuture<byte[]> loadAsync(String key, long version, long epoch, @Nullable Load current) {
        long sentAt = System.nanoTime();
        Load mine = new Load(version, epoch, sentAt);
        boolean leading = current == null ? loads.putIfAbsent(key, mine) == null : loads.replace(key, current, mine);
        CompletableFuture<byte[]> read;
        CompletableFuture<Long> ttl;
        try {
            ttl = keeping.askTimeToLive(key);
            read = remote.getAsync(key);
        }
        catch (RuntimeException ex) {
            settle(key, mine, leading, false, null);
            throw ex;
        }
        return read.whenComplete((value, failure) -> {
            try {
                if (failure == null) {
                    keeping.keep(key, keeping.countRemote(value), version, epoch, sentAt, ttl);
                }
            }
            finally {
                settle(key, mine, leading, failure == null, value);
            }
        });
    }

    /**
     * Ends a read this caller sent: whatever ended it, the callers sharing it must not wait on (they
     * try for themselves if it failed), and the next read of the key must not join it. They get
     * copies of a copy: the caller that sent it may change the array it is given.
     * @param leading whether this read was the one on its way for its key (others may have joined it)
     * @param read whether the server answered it
     */
    private void settle(String key, Load mine, boolean leading, boolean read, byte @Nullable [] value) {
        if (leading) {
            if (read) {
                mine.complete(value == null ? null : value.clone());
            }
            else {
                mine.fail();
            }
            loads.remove(key, mine);
        }
    }

    /**
     * A read of a key on its way to the server (single flight). A read of the same key that misses
     * locally while it is on its way, with the key's version and the epoch unchanged since it was
     * sent, waits for its answer instead of sending its own: nothing that would have stopped that
     * answer from being kept locally has happened, so it is as good as a local copy would be (a
     * write of this instance that completed since bumped the version, and a report of another's
     * write did too). Under many callers this saves the server a read per caller for every key that
     * goes missing, the hot keys of a write-heavy mix above all.
     *
     * <p>Only a read sent within the staleness bound before the joining read started is joined: a
     * slow read (a pause, a retransmit, a long timeout) may have been answered before a write that
     * another instance completed since, and a tier without invalidations (memcached) has no version
     * bump to tell. A read started more than the bound after it was sent sends its own.
     */
    private static final class Load {

        /** The answer of a read that failed: the sharing reads try for themselves. */
        static final byte[] FAILED = new byte[0];

        final long version;
        final long epoch;
        final long sentAtNanos;
        final CompletableFuture<byte[]> result = new CompletableFuture<>();

        Load(long version, long epoch, long sentAtNanos) {
            this.version = version;
            this.epoch = epoch;
            this.sentAtNanos = sentAtNanos;
        }

        /** Whether a read that started at {@code nowNanos} under this version and epoch may take this read's answer. */
        boolean answers(long version, long epoch, long nowNanos, long boundNanos) {
            return this.version == version && this.epoch == epoch && nowNanos - this.sentAtNanos <= boundNanos;
        }

        void complete(byte @Nullable [] value) {
            result.complete(value);
        }

        void fail() {
            result.complete(FAILED);
        }

        /** The answer, {@code null} for an absent key, or {@link #FAILED}; the remote call's own timeout bounds the wait. */
        byte @Nullable [] await() {
            return result.join();
        }
    }
}
