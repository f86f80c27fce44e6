package io.adaptivecache.near;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * What a read from the server may leave in the {@link LocalTier}, and what it counts: the rules
 * the single-key reads ({@link SingleFlightReads}) and the multi-key reads ({@link MultiKeyReads})
 * share, kept in one place so that the two paths cannot come to keep a value under different
 * rules.
 *
 * <p>Where the invalidation source can tell a key's remaining time to live on the server (Redis),
 * it is asked together with each read that may be kept ({@link #askTimeToLive}, before the read is
 * sent, never after it), and the copy lives no longer than the key does there: the server reports
 * an expiry only when it deletes the key, which may be long after.
 */
final class ReadKeeping {

    private final LocalTier tier;
    /** Asked for a key's remaining time to live with each read that may be kept; {@code null} when it cannot tell. */
    private final @Nullable InvalidationSource expiries;

    /**
     * The rules for one near cache.
     * @param tier its local tier
     * @param expiries asked for the remaining time to live of each key read, or {@code null}
     */
    ReadKeeping(LocalTier tier, @Nullable InvalidationSource expiries) {
        this.tier = tier;
        this.expiries = expiries;
    }

    /** Counts a single-key read answered by the server. */
    byte[] countRemote(byte[] value) {
        (value == null ? tier.remoteMisses : tier.remoteHits).increment();
        return value;
    }

    /** Counts the covered keys of a multi-key read answered by the server. */
    Map<String, byte[]> countRemote(Collection<String> asked, Map<String, byte[]> found) {
        if (asked != null) {
            for (String key : asked) {
                if (tier.covers(key)) {
                    (found.containsKey(key) ? tier.remoteHits : tier.remoteMisses).increment();
                }
            }
        }
        return found;
    }

    /** The key's remaining time to live on the server, asked now, or {@code null} when the source cannot tell. */
    @Nullable CompletableFuture<Long> askTimeToLive(String key) {
        return expiries == null ? null : expiries.remainingTimeToLive(key);
    }

    /**
     * Keeps a value read, until the key's expiry on the server when that is asked. If the answer
     * has not come when the value has, the value is kept now, as it would be without the question,
     * and capped (or dropped) when the answer comes: the source answers before it proves any
     * heartbeat sent after the question, so that meanwhile the copy is served at most the staleness
     * bound past the moment the read was sent, when the key still lived (the caller never waits
     * for the answer, and a tracking connection slower than the data path costs no local hits).
     */
    void keep(String key, byte @Nullable [] value, long version, long epoch, long sentAt,
            @Nullable CompletableFuture<Long> ttl) {
        if (value == null) {
            return;
        }
        // The caller owns the array it gets; the tier keeps its own.
        byte[] copy = value.clone();
        if (ttl == null) {
            tier.keep(key, copy, version, epoch, sentAt);
            return;
        }
        if (ttl.isDone()) {
            keepUntilExpiry(key, copy, version, epoch, sentAt, ttl.isCompletedExceptionally() ? null : ttl.join());
            return;
        }
        // The answer is noted before the copy is capped, and the store reads it under the key's lock: whichever of the
        // store and the answer comes second applies it, on whichever thread.
        LocalTier.ExpiryAnswer answer = new LocalTier.ExpiryAnswer();
        ttl.whenComplete((millis, failure) -> {
            long expiresAt = expiry(sentAt, failure == null ? millis : null);
            answer.set(expiresAt);
            tier.capExpiry(key, copy, expiresAt);
        });
        tier.keep(key, copy, version, epoch, sentAt, answer);
    }

    /**
     * When a copy read at {@code sentAt} expires, from the server's answer of its remaining time to
     * live; {@code sentAt} itself (already expired) when nothing may be kept.
     */
    private long expiry(long sentAt, @Nullable Long millis) {
        if (millis == null || millis < -1) {
            return sentAt;
        }
        return millis == -1 ? sentAt + tier.timeToLiveNanos() : sentAt + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /**
     * Keeps a value read for no longer than the key lives on the server. The time to live was asked
     * after {@code sentAt}: the server counted it from later still, so that {@code sentAt} plus the
     * answer is no later than the key's expiry.
     * @param millis the answer as Redis's {@code PTTL} gives it: -1 for no expiry, -2 for no such key
     *        (a value was read, so a write came between the two: nothing is kept); {@code null} if
     *        the question failed (nothing is kept)
     */
    private void keepUntilExpiry(String key, byte[] copy, long version, long epoch, long sentAt, @Nullable Long millis) {
        if (millis == null || millis < -1) {
            tier.discarded();
            return;
        }
        tier.keep(key, copy, version, epoch, sentAt, expiry(sentAt, millis));
    }
}
