package io.adaptivecache.near;

import java.nio.ByteBuffer;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A write-through tier's own sets, without a server: when a completed set keeps its value, and
 * which of the server's reports (invalidations) leaves it. The server reports writes in the order
 * it executed them, one report per write; each test plays one such order.
 */
class OwnWriteTierTests {

    private final LocalTier tier = new LocalTier(NearCacheSettings.builder().keyPrefixes("k:").build(),
            Duration.ofMinutes(1).toNanos(), true);

    private static byte[] value(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    private long served(String key) {
        LocalTier.Entry entry = this.tier.lookup(key);
        return entry == null ? -1 : ByteBuffer.wrap(entry.value()).getLong();
    }

    @Test
    void aCompletedSetShouldBeServedLocallyAndSurviveItsOwnEchoButNotTheNextReport() {
        LocalTier.WriteTicket ticket = this.tier.beforeSet("k:1");
        this.tier.afterSet("k:1", ticket, value(1));
        assertThat(served("k:1")).as("the own write, without a round trip").isEqualTo(1);

        this.tier.invalidate("k:1"); // the echo of that write
        assertThat(served("k:1")).as("its echo leaves it").isEqualTo(1);

        this.tier.invalidate("k:1"); // another instance's later write
        assertThat(served("k:1")).as("a later write's report drops it").isEqualTo(-1);
    }

    @Test
    void aSetWhoseEchoOvertookItsReplyShouldBeKeptButDroppedByTheNextReport() {
        // The one report that came meanwhile was the echo or an older write's: the copy is at least as new as either.
        LocalTier.WriteTicket ticket = this.tier.beforeSet("k:1");
        this.tier.invalidate("k:1");
        this.tier.afterSet("k:1", ticket, value(1));
        assertThat(served("k:1")).isEqualTo(1);
        // It awaits no echo: if that report was an older write's, the echo still to come drops the copy, and if it was the
        // echo, the next report is a later write's.
        this.tier.invalidate("k:1");
        assertThat(served("k:1")).isEqualTo(-1);
    }

    @Test
    void twoReportsWhileTheSetWasOnItsWayShouldKeepNothing() {
        // The echo and a later write's report may both have come: the value written may already be stale.
        LocalTier.WriteTicket ticket = this.tier.beforeSet("k:1");
        this.tier.invalidate("k:1");
        this.tier.invalidate("k:1");
        this.tier.afterSet("k:1", ticket, value(1));
        assertThat(served("k:1")).isEqualTo(-1);
        assertThat(this.tier.ownWritesKept.sum()).isZero();
    }

    @Test
    void aReportOfAnotherKeyOfTheSameStripeShouldCountAsOneForTheKey() {
        // Reports are counted per stripe: one for another key makes the set's copy await no echo, so its echo drops it.
        String other = keyInSameStripeAs("k:1");
        LocalTier.WriteTicket ticket = this.tier.beforeSet("k:1");
        this.tier.invalidate(other);
        this.tier.afterSet("k:1", ticket, value(1));
        assertThat(served("k:1")).isEqualTo(1);
        this.tier.invalidate("k:1");
        assertThat(served("k:1")).as("the cautious side").isEqualTo(-1);
    }

    @Test
    void twoOwnSetsInFlightTogetherShouldKeepNeitherAsTheServerMayHaveRunThemInEitherOrder() {
        LocalTier.WriteTicket first = this.tier.beforeSet("k:1");
        LocalTier.WriteTicket second = this.tier.beforeSet("k:1");
        this.tier.afterSet("k:1", first, value(1));
        this.tier.afterSet("k:1", second, value(2));
        assertThat(served("k:1")).isEqualTo(-1);
        // Once neither is in flight, the next set keeps its value again.
        LocalTier.WriteTicket third = this.tier.beforeSet("k:1");
        this.tier.afterSet("k:1", third, value(3));
        assertThat(served("k:1")).isEqualTo(3);
    }

    @Test
    void aSetThatStartedAndEndedWhileAnotherWasInFlightShouldMakeTheOtherKeepNothing() {
        LocalTier.WriteTicket outer = this.tier.beforeSet("k:1");
        LocalTier.WriteTicket inner = this.tier.beforeSet("k:1");
        this.tier.afterSet("k:1", inner, value(2));
        this.tier.afterSet("k:1", outer, value(1));
        assertThat(served("k:1")).isEqualTo(-1);
    }

    @Test
    void aFailedSetOrAFlushWhileItWasOnItsWayShouldKeepNothing() {
        LocalTier.WriteTicket failed = this.tier.beforeSet("k:1");
        this.tier.afterSet("k:1", failed, null);
        assertThat(served("k:1")).isEqualTo(-1);

        LocalTier.WriteTicket flushed = this.tier.beforeSet("k:1");
        this.tier.invalidateAll();
        this.tier.afterSet("k:1", flushed, value(1));
        assertThat(served("k:1")).isEqualTo(-1);
    }

    @Test
    void aReadSentBeforeTheSetCompletedShouldNotReplaceItsValue() {
        long version = this.tier.version("k:1");
        long epoch = this.tier.epoch();
        LocalTier.WriteTicket ticket = this.tier.beforeSet("k:1");
        this.tier.afterSet("k:1", ticket, value(2));
        // A read sent before the write completed may carry the old value.
        this.tier.keep("k:1", value(1), version, epoch, System.nanoTime());
        assertThat(served("k:1")).isEqualTo(2);
    }

    @Test
    void aReadSentAfterTheSetCompletedShouldReplaceItsValueAndStillAwaitTheEcho() {
        LocalTier.WriteTicket ticket = this.tier.beforeSet("k:1");
        this.tier.afterSet("k:1", ticket, value(3));
        long version = this.tier.version("k:1");
        this.tier.keep("k:1", value(4), version, this.tier.epoch(), System.nanoTime());
        assertThat(served("k:1")).as("a read sent after the set is at least as new").isEqualTo(4);
        this.tier.invalidate("k:1"); // the set's echo
        assertThat(served("k:1")).as("the echo the replaced copy awaited").isEqualTo(4);
        this.tier.invalidate("k:1");
        assertThat(served("k:1")).isEqualTo(-1);
    }

    @Test
    void thePreviousCopyShouldBeServedWhileASetIsOnItsWayAndNeverOnceItHasReturned() {
        this.tier.keep("k:1", value(1), this.tier.version("k:1"), this.tier.epoch(), System.nanoTime());
        LocalTier.WriteTicket completed = this.tier.beforeSet("k:1");
        assertThat(served("k:1")).as("a read overlapping the write may return the old value").isEqualTo(1);
        this.tier.afterSet("k:1", completed, value(2));
        assertThat(served("k:1")).isEqualTo(2);

        LocalTier.WriteTicket failed = this.tier.beforeSet("k:1");
        assertThat(served("k:1")).isEqualTo(2);
        this.tier.afterSet("k:1", failed, null);
        assertThat(served("k:1")).as("a failed write may have been applied: nothing is served").isEqualTo(-1);

        this.tier.keep("k:1", value(3), this.tier.version("k:1"), this.tier.epoch(), System.nanoTime());
        LocalTier.WriteTicket crowded = this.tier.beforeSet("k:1");
        this.tier.invalidate("k:1");
        this.tier.invalidate("k:1");
        this.tier.afterSet("k:1", crowded, value(4));
        assertThat(served("k:1")).as("two reports meanwhile: dropped, not left as it was").isEqualTo(-1);
    }

    @Test
    void aTierWithoutWriteThroughShouldDropOnEveryReportAndKeepNoOwnWrite() {
        LocalTier plain = new LocalTier(NearCacheSettings.builder().keyPrefixes("k:").build(), Duration.ofMinutes(1).toNanos());
        LocalTier.WriteTicket ticket = plain.beforeSet("k:1");
        assertThat(ticket).isNull();
        plain.afterSet("k:1", ticket, value(1));
        assertThat(plain.lookup("k:1")).isNull();
    }

    /** A key of the same stripe (the stripes of versions and reports). */
    private static String keyInSameStripeAs(String key) {
        for (int i = 0; ; i++) {
            String candidate = "k:other:" + i;
            if (LocalTier.stripe(candidate) == LocalTier.stripe(key)) {
                return candidate;
            }
        }
    }
}
