package io.adaptivecache.memcached;

import java.time.Duration;
import java.time.Instant;

/**
 * Converts a TTL to memcached's {@code exptime}: whole seconds, rounded up; memcached reads
 * any value over 30 days as an absolute Unix time, so longer TTLs are sent as now + TTL rather
 * than as a date in 1970 (which would expire the item at once).
 */
final class MemcachedExpiry {

    static final long MAX_RELATIVE_SECONDS = Duration.ofDays(30).toSeconds();

    /** exptime is a 32-bit signed field on the wire. */
    private static final Instant LAST_EXPIRY = Instant.ofEpochSecond(Integer.MAX_VALUE);

    private MemcachedExpiry() {
    }

    static int toExptime(Duration ttl, long nowEpochSeconds) {
        if (ttl.isZero()) {
            return 0;
        }
        long seconds = ttl.getSeconds() + (ttl.getNano() > 0 ? 1 : 0);
        if (seconds <= MAX_RELATIVE_SECONDS) {
            return (int) seconds;
        }
        return Math.toIntExact(nowEpochSeconds + seconds);
    }

    /** The longest TTL whose absolute expiry still fits the wire format, with a day to spare. */
    static Duration maxTtl(Instant now) {
        return Duration.between(now, LAST_EXPIRY).minusDays(1);
    }
}
