package io.adaptivecache.near;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.adaptivecache.CacheTemplate;
import org.jspecify.annotations.Nullable;

/**
 * The write path of a {@link NearCachingTemplate}: a write of a covered key drops the local copy
 * before it is sent and again when it completes, so that a read overlapping the write cannot keep
 * the old value; a {@code set} may in addition keep its own value ({@link OwnWrites}). A class of
 * its own so that the pairing of {@link LocalTier#beforeWrite} with {@link LocalTier#afterWrite}
 * (and of {@code beforeSet} with {@code afterSet}), on which a write-through tier's counts depend,
 * reads in one place.
 *
 * <p>Every {@code tier.beforeWrite} is paired with a {@code tier.afterWrite}, also when the call
 * throws before anything was sent: a write-through tier counts the writes in flight, and a set
 * overlapping one keeps nothing.
 */
final class WritePath {

    private final CacheTemplate remote;
    private final LocalTier tier;
    private final InvalidationSubscription subscription;

    /**
     * The write path of one near cache.
     * @param remote the template behind it
     * @param tier its local tier
     * @param subscription says when the tier may serve, and so whether a set may keep its value
     */
    WritePath(CacheTemplate remote, LocalTier tier, InvalidationSubscription subscription) {
        this.remote = remote;
        this.tier = tier;
        this.subscription = subscription;
    }

    private boolean beforeWrite(String key) {
        if (!tier.covers(key)) {
            return false;
        }
        tier.beforeWrite(key);
        return true;
    }

    /** Sends a write of the key, dropping its copy before it is sent and again when it completes or fails. */
    <T extends @Nullable Object> T write(String key, Supplier<T> write) {
        boolean covered = beforeWrite(key);
        try {
            return write.get();
        }
        finally {
            if (covered) {
                tier.afterWrite(key);
            }
        }
    }

    /** Sends an asynchronous write of the key, pairing it with its afterWrite whatever happens. */
    <T extends @Nullable Object> CompletableFuture<T> writeAsync(String key, Supplier<CompletableFuture<T>> write) {
        boolean covered = beforeWrite(key);
        CompletableFuture<T> sent;
        try {
            sent = write.get();
        }
        catch (RuntimeException ex) {
            // Refused before anything was sent (bad input): nothing in flight any more.
            if (covered) {
                tier.afterWrite(key);
            }
            throw ex;
        }
        return covered ? sent.whenComplete((result, failure) -> tier.afterWrite(key)) : sent;
    }

    // A set that completes may keep its own value (a write-through tier, see LocalTier) until the next report of its
    // key: the next read of this instance then needs no round trip. Only while serving; a copy of a value given a
    // time to live lives no longer than that, counted from when the set was sent.

    void set(String key, byte[] value, Duration ttl) {
        if (!tier.covers(key)) {
            remote.set(key, value, ttl);
            return;
        }
        LocalTier.WriteTicket ticket = tier.beforeSet(key, subscription.isServing());
        boolean written = false;
        try {
            remote.set(key, value, ttl);
            written = true;
        }
        finally {
            tier.afterSet(key, ticket, written && ticket != null ? ownCopy(value, ttl) : null, ttlNanos(ttl));
        }
    }

    CompletableFuture<Void> setAsync(String key, byte[] value, Duration ttl) {
        if (!tier.covers(key)) {
            return remote.setAsync(key, value, ttl);
        }
        LocalTier.WriteTicket ticket = tier.beforeSet(key, subscription.isServing());
        // Copied now: the caller may change its array once the call has returned.
        byte[] copy = ticket != null ? ownCopy(value, ttl) : null;
        long ttlNanos = ttlNanos(ttl);
        CompletableFuture<Void> write;
        try {
            write = remote.setAsync(key, value, ttl);
        }
        catch (RuntimeException ex) {
            // Refused before anything was sent (bad input): nothing in flight any more.
            tier.afterSet(key, ticket, null, 0);
            throw ex;
        }
        return write.whenComplete((result, failure) -> tier.afterSet(key, ticket,
                failure == null && subscription.isServing() ? copy : null, ttlNanos));
    }

    /** The value to keep after an own set, or {@code null} to keep nothing. */
    private byte @Nullable [] ownCopy(byte[] value, Duration ttl) {
        if (value == null || ttl == null || ttl.isNegative() || !subscription.isServing()) {
            return null;
        }
        return value.clone();
    }

    /** A set's time to live on the server in nanoseconds, 0 for none (or one the template refuses). */
    private static long ttlNanos(Duration ttl) {
        return ttl == null || ttl.isNegative() ? 0 : ttl.toNanos();
    }
}
