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

    /**
     * The exptime of a TTL sent now, by the wall clock: memcached compares an absolute exptime
     * with its own wall clock, so a TTL over 30 days is counted from this host's idea of now.
     * Both drivers' commands send their TTLs through here.
     */
    static int exptime(Duration ttl) {
        return toExptime(ttl, System.currentTimeMillis() / 1000);
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
