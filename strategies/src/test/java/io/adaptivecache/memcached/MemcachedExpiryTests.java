package io.adaptivecache.memcached;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MemcachedExpiryTests {

    private static final long NOW = Instant.parse("2026-11-21T12:00:00Z").getEpochSecond();

    @Test
    void zeroShouldMeanNoExpiry() {
        assertThat(MemcachedExpiry.toExptime(Duration.ZERO, NOW)).isZero();
    }

    @Test
    void shortTtlsShouldBeRelativeSecondsRoundedUp() {
        assertThat(MemcachedExpiry.toExptime(Duration.ofMillis(1), NOW)).isEqualTo(1);
        assertThat(MemcachedExpiry.toExptime(Duration.ofMillis(1500), NOW)).isEqualTo(2);
        assertThat(MemcachedExpiry.toExptime(Duration.ofSeconds(60), NOW)).isEqualTo(60);
        assertThat(MemcachedExpiry.toExptime(Duration.ofDays(30), NOW)).isEqualTo(2_592_000);
    }

    @Test
    void ttlsOverThirtyDaysShouldBecomeAnAbsoluteUnixTimeInTheFuture() {
        int exptime = MemcachedExpiry.toExptime(Duration.ofDays(30).plusSeconds(1), NOW);

        assertThat(exptime).isEqualTo(NOW + 2_592_001);
        assertThat(MemcachedExpiry.toExptime(Duration.ofDays(365), NOW)).isEqualTo(NOW + Duration.ofDays(365).toSeconds());
    }

    @Test
    void theLongestTtlShouldStillFitTheWireFormat() {
        Instant now = Instant.ofEpochSecond(NOW);
        Duration longest = MemcachedExpiry.maxTtl(now);

        assertThat(longest).isGreaterThan(Duration.ofDays(365 * 10));
        assertThat((long) MemcachedExpiry.toExptime(longest, NOW)).isLessThan(Integer.MAX_VALUE);
    }
}
