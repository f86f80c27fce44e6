package io.adaptivecache.near;

import java.nio.ByteBuffer;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A write-through tier's own sets, without a server: when a completed set keeps its value, and
 * that every report of the server (invalidation) drops it. Redis reports the keys written in one
 * cycle of its event loop together, after the cycle, so that a report may stand for an own write's
 * echo and another client's later write at once; each test plays one order of events.
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

    /**
     * An own set of {@code k:1} to {@code written} (null: the set failed), during which
     * {@code meanwhile} happens: what the tier sees between sending the set and its reply.
     */
    private void setOfK1(Runnable meanwhile, byte[] written) {
        LocalTier.WriteTicket ticket = this.tier.beforeSet("k:1", true);
        meanwhile.run();
        this.tier.afterSet("k:1", ticket, written, 0);
    }

    /** An own set of {@code k:1} to {@code n} with nothing happening while it is on its way. */
    private void completedSetOfK1(long n) {
        setOfK1(() -> { }, value(n));
    }

    @Test
    void aCompletedSetShouldBeServedLocallyUntilTheNextReportOfItsKeyItsOwnEchoIncluded() {
        completedSetOfK1(1);
        assertThat(served("k:1")).as("the own write, without a round trip").isEqualTo(1);
        assertThat(this.tier.ownWritesKept.sum()).isEqualTo(1);

        this.tier.invalidate("k:1"); // the echo of that write, perhaps with other writes of the key in its cycle
        assertThat(served("k:1")).as("the echo drops it like any report").isEqualTo(-1);
    }

    @Test
    void aReportAfterACompletedSetShouldDropItsCopyThoughItMayStandForTheEchoAndALaterWriteAtOnce() {
        // Redis reports per cycle of its event loop, not per write: this set and another client's write of the key in the
        // same cycle come as one report, which cannot be told from the echo alone. Its copy may be stale: it goes.
        completedSetOfK1(1);
        this.tier.invalidate("k:1"); // the echo and another client's later write of the key, in one report
        assertThat(served("k:1")).as("the copy after a report that may stand for a later write").isEqualTo(-1);
    }

    @Test
    void anOwnDeleteOverlappingASetShouldMakeItKeepNothing() {
        // The server may run the delete after the set, and report both at once after both replies came.
        setOfK1(() -> {
            this.tier.beforeWrite("k:1");
            this.tier.afterWrite("k:1");
        }, value(1));
        assertThat(served("k:1")).as("a set overlapped by an own delete of the key").isEqualTo(-1);

        // And a set that started while an own write of the key was in flight keeps nothing either.
        this.tier.beforeWrite("k:1");
        LocalTier.WriteTicket late = this.tier.beforeSet("k:1", true);
        this.tier.afterWrite("k:1");
        this.tier.afterSet("k:1", late, value(2), 0);
        assertThat(served("k:1")).as("a set started while an own write was in flight").isEqualTo(-1);
    }

    /**
     * One report while the set was on its way (its echo overtook its reply) may be the echo and
     * another client's later write of the key together; with two, the echo and a later write's
     * report may both have come. Either way the value written may already be stale.
     */
    @ParameterizedTest(name = "{0} report(s) while the set was on its way")
    @ValueSource(ints = { 1, 2 })
    void reportsWhileTheSetWasOnItsWayShouldMakeItKeepNothing(int reports) {
        setOfK1(() -> {
            for (int i = 0; i < reports; i++) {
                this.tier.invalidate("k:1");
            }
        }, value(1));
        assertThat(served("k:1")).isEqualTo(-1);
        assertThat(this.tier.ownWritesKept.sum()).isZero();
    }

    @Test
    void aReportOfAnotherKeyOfTheSameStripeShouldCountAsOneForTheKey() {
        // Reports are counted per stripe: one for another key of the stripe while the set was on its way keeps nothing.
        String other = keyInSameStripeAs("k:1");
        setOfK1(() -> this.tier.invalidate(other), value(1));
        assertThat(served("k:1")).as("the cautious side").isEqualTo(-1);
        // One of a key in another stripe does not count.
        String elsewhere = keyInOtherStripeThan("k:1");
        setOfK1(() -> this.tier.invalidate(elsewhere), value(2));
        assertThat(served("k:1")).isEqualTo(2);
    }

    /**
     * Two own sets in flight together keep neither, as the server may have run them in either
     * order: whether the first one started ends first, or the later one started and ended while
     * the first was in flight.
     */
    @ParameterizedTest(name = "the first started ends first: {0}")
    @ValueSource(booleans = { true, false })
    void twoOwnSetsInFlightTogetherShouldKeepNeitherAsTheServerMayHaveRunThemInEitherOrder(boolean firstStartedEndsFirst) {
        LocalTier.WriteTicket first = this.tier.beforeSet("k:1", true);
        LocalTier.WriteTicket second = this.tier.beforeSet("k:1", true);
        LocalTier.WriteTicket endsFirst = firstStartedEndsFirst ? first : second;
        LocalTier.WriteTicket endsLast = firstStartedEndsFirst ? second : first;
        this.tier.afterSet("k:1", endsFirst, value(1), 0);
        this.tier.afterSet("k:1", endsLast, value(2), 0);
        assertThat(served("k:1")).isEqualTo(-1);
        // Once neither is in flight, the next set keeps its value again.
        completedSetOfK1(3);
        assertThat(served("k:1")).isEqualTo(3);
    }

    @Test
    void aFailedSetOrAFlushWhileItWasOnItsWayShouldKeepNothing() {
        setOfK1(() -> { }, null); // the set failed
        assertThat(served("k:1")).isEqualTo(-1);

        setOfK1(this.tier::invalidateAll, value(1));
        assertThat(served("k:1")).isEqualTo(-1);
    }

    @Test
    void aReadSentBeforeTheSetCompletedShouldNotReplaceItsValue() {
        long version = this.tier.version("k:1");
        long epoch = this.tier.epoch();
        completedSetOfK1(2);
        // A read sent before the write completed may carry the old value.
        this.tier.keep("k:1", value(1), version, epoch, System.nanoTime());
        assertThat(served("k:1")).isEqualTo(2);
    }

    @Test
    void aReadSentAfterTheSetCompletedShouldReplaceItsValueUntilTheNextReport() {
        completedSetOfK1(3);
        long version = this.tier.version("k:1");
        this.tier.keep("k:1", value(4), version, this.tier.epoch(), System.nanoTime());
        assertThat(served("k:1")).as("a read sent after the set is at least as new").isEqualTo(4);
        this.tier.invalidate("k:1"); // the set's echo, perhaps with later writes
        assertThat(served("k:1")).isEqualTo(-1);
    }

    @Test
    void anOwnSetWithAShortServerTtlShouldBeKeptNoLongerThanThatFromWhenItWasSent() {
        LocalTier.WriteTicket ticket = this.tier.beforeSet("k:1", true);
        this.tier.afterSet("k:1", ticket, value(1), Duration.ofMillis(150).toNanos());
        assertThat(served("k:1")).isEqualTo(1);
        assertThat(this.tier.lookup("k:1").expiresAtNanos() - ticket.sentAtNanos()).isEqualTo(Duration.ofMillis(150).toNanos());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                .until(() -> served("k:1") == -1);
        assertThat(System.nanoTime() - ticket.sentAtNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(150).toNanos());
    }

    @Test
    void thePreviousCopyShouldBeServedWhileASetIsOnItsWayAndNeverOnceItHasReturned() {
        this.tier.keep("k:1", value(1), this.tier.version("k:1"), this.tier.epoch(), System.nanoTime());
        setOfK1(() -> assertThat(served("k:1")).as("a read overlapping the write may return the old value").isEqualTo(1), value(2));
        assertThat(served("k:1")).isEqualTo(2);

        setOfK1(() -> assertThat(served("k:1")).isEqualTo(2), null); // a set that failed
        assertThat(served("k:1")).as("a failed write may have been applied: nothing is served").isEqualTo(-1);

        this.tier.keep("k:1", value(3), this.tier.version("k:1"), this.tier.epoch(), System.nanoTime());
        setOfK1(() -> this.tier.invalidate("k:1"), value(4));
        assertThat(served("k:1")).as("a report meanwhile: dropped, not left as it was").isEqualTo(-1);
    }

    @Test
    void aTierWithoutWriteThroughShouldDropOnEveryReportAndKeepNoOwnWrite() {
        LocalTier plain = new LocalTier(NearCacheSettings.builder().keyPrefixes("k:").build(), Duration.ofMinutes(1).toNanos());
        LocalTier.WriteTicket ticket = plain.beforeSet("k:1", true);
        assertThat(ticket).isNull();
        plain.afterSet("k:1", ticket, value(1), 0);
        assertThat(plain.lookup("k:1")).isNull();
        assertThat(plain.stats().remoteWrites()).as("one set, counted once").isEqualTo(1);
        assertThat(plain.stats().writeInvalidations()).isEqualTo(1);
    }

    @Test
    void aSetWhileNotServingShouldKeepNothingAndNotBlockLaterSets() {
        assertThat(this.tier.beforeSet("k:1", false)).isNull();
        this.tier.afterSet("k:1", null, value(1), 0);
        assertThat(served("k:1")).isEqualTo(-1);
        // It was counted as a write in flight and is done: the next set keeps its value.
        completedSetOfK1(2);
        assertThat(served("k:1")).isEqualTo(2);
    }

    /** A key of another stripe. */
    private static String keyInOtherStripeThan(String key) {
        for (int i = 0; ; i++) {
            String candidate = "k:elsewhere:" + i;
            if (LocalTier.stripe(candidate) != LocalTier.stripe(key)) {
                return candidate;
            }
        }
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
