package io.adaptivecache.near;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The local tier's rule, without a server: which replies it keeps, and what it serves. */
class LocalTierTests {

    private final LocalTier tier = new LocalTier(NearCacheSettings.builder().keyPrefixes("k:").build(),
            Duration.ofMinutes(1).toNanos());

    private static byte[] value(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    private static long number(LocalTier.Entry entry) {
        return ByteBuffer.wrap(entry.value()).getLong();
    }

    /**
     * A read of {@code k:1} that takes the tier's version and epoch when sent, during which
     * {@code meanwhile} happens, and whose reply (value 1) is then offered to the tier to keep.
     */
    private void keepAReplySentBefore(Runnable meanwhile) {
        long version = tier.version("k:1");
        long epoch = tier.epoch();
        meanwhile.run();
        tier.keep("k:1", value(1), version, epoch, System.nanoTime());
    }

    @Test
    void aReplyIsKeptWhenNothingHappenedWhileItWasOnItsWay() {
        keepAReplySentBefore(() -> { });
        assertThat(number(tier.lookup("k:1"))).isEqualTo(1);
        assertThat(tier.stats().localPuts()).isEqualTo(1);
    }

    @Test
    void aReplyOvertakenByAnInvalidationOfItsKeyIsNotKept() {
        keepAReplySentBefore(() -> tier.invalidate("k:1"));
        assertThat(tier.lookup("k:1")).isNull();
        assertThat(tier.stats().discardedLoads()).isEqualTo(1);
    }

    @Test
    void aReplyOvertakenByAWriteThroughTheNearCacheIsNotKept() {
        keepAReplySentBefore(() -> tier.afterWrite("k:1"));
        assertThat(tier.lookup("k:1")).isNull();
    }

    @Test
    void aReplyOvertakenByAFlushIsNotKept() {
        keepAReplySentBefore(tier::invalidateAll);
        assertThat(tier.lookup("k:1")).isNull();
    }

    @Test
    void aFlushHidesEveryCopyAtOnce() {
        tier.keep("k:1", value(1), tier.version("k:1"), tier.epoch(), System.nanoTime());
        tier.keep("k:2", value(2), tier.version("k:2"), tier.epoch(), System.nanoTime());
        tier.invalidateAll();
        assertThat(tier.lookup("k:1")).isNull();
        assertThat(tier.lookup("k:2")).isNull();
        assertThat(tier.stats().flushes()).isEqualTo(1);
    }

    @Test
    void anInvalidationOutsideThePrefixesIsIgnored() {
        long version = tier.version("k:1");
        tier.invalidate("other:1");
        assertThat(tier.stats().serverInvalidations()).isZero();
        assertThat(tier.covers("other:1")).isFalse();
        assertThat(tier.covers(null)).isFalse();
        assertThat(tier.version("k:1")).isEqualTo(version);
    }

    @Test
    void ofTwoRepliesInFlightTogetherTheLaterSentIsKept() {
        long version = tier.version("k:1");
        long epoch = tier.epoch();
        long first = System.nanoTime();
        long second = first + 1_000;
        tier.keep("k:1", value(2), version, epoch, second);
        tier.keep("k:1", value(1), version, epoch, first);
        assertThat(number(tier.lookup("k:1"))).isEqualTo(2);
    }

    @Test
    void aCopyLivesTheTimeToLiveFromWhenItsReadWasSent() {
        LocalTier shortLived = new LocalTier(NearCacheSettings.DEFAULTS, Duration.ofMillis(200).toNanos());
        // Sent 150 ms ago: 50 ms left.
        shortLived.keep("k", value(1), shortLived.version("k"), shortLived.epoch(), System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(150));
        assertThat(shortLived.lookup("k")).isNotNull();
        sleep(80);
        assertThat(shortLived.lookup("k")).isNull();
        // Sent longer ago than the time to live: never served.
        shortLived.keep("k", value(1), shortLived.version("k"), shortLived.epoch(), System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(250));
        assertThat(shortLived.lookup("k")).isNull();
    }

    @Test
    void aCopyLivesNoLongerThanTheKeyOnTheServer() {
        long sent = System.nanoTime();
        tier.keep("k:1", value(1), tier.version("k:1"), tier.epoch(), sent, sent + TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(tier.lookup("k:1")).isNotNull();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(2)).pollInterval(java.time.Duration.ofMillis(5))
                .until(() -> tier.lookup("k:1") == null);
        assertThat(System.nanoTime() - sent).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        // An expiry later than the time to live allows does not extend the copy's life.
        tier.keep("k:2", value(2), tier.version("k:2"), tier.epoch(), sent, sent + TimeUnit.HOURS.toNanos(1));
        assertThat(tier.lookup("k:2").expiresAtNanos()).isEqualTo(sent + Duration.ofMinutes(1).toNanos());
        // Expired on its way: not kept.
        long discarded = tier.stats().discardedLoads();
        tier.keep("k:3", value(3), tier.version("k:3"), tier.epoch(), sent, System.nanoTime() - 1);
        assertThat(tier.lookup("k:3")).isNull();
        assertThat(tier.stats().discardedLoads()).isEqualTo(discarded + 1);
    }

    @Test
    void bothBoundsHoldTogether() {
        // 10 entries and 10 KiB: small values are bounded by the entries, large ones by the bytes.
        LocalTier both = new LocalTier(NearCacheSettings.builder().maximumEntries(10).maximumWeight(10 * 1024).build(),
                Duration.ofMinutes(1).toNanos());
        for (int i = 0; i < 100; i++) {
            both.keep("s" + i, value(i), both.version("s" + i), both.epoch(), System.nanoTime());
        }
        both.cleanUp();
        assertThat(both.stats().size()).isLessThanOrEqualTo(10);
        for (int i = 0; i < 100; i++) {
            both.keep("l" + i, new byte[3000], both.version("l" + i), both.epoch(), System.nanoTime());
        }
        both.cleanUp();
        assertThat(both.weightedSize()).isLessThanOrEqualTo(10 * 1024);
        assertThat(both.stats().size()).isLessThanOrEqualTo(3);
    }

    @Test
    void theEntryBoundHoldsAtOnce() {
        LocalTier small = new LocalTier(NearCacheSettings.builder().maximumEntries(100).build(), Duration.ofMinutes(1).toNanos());
        for (int i = 0; i < 10_000; i++) {
            small.keep("k" + i, value(i), small.version("k" + i), small.epoch(), System.nanoTime());
        }
        assertThat(small.stats().size()).isLessThanOrEqualTo(100);
        assertThat(small.stats().evictions()).isGreaterThanOrEqualTo(9_900);
    }

    @Test
    void theWeightBoundCountsKeysValuesAndOverhead() {
        int valueBytes = 1000;
        long perEntry = valueBytes + 2L * "k0000".length() + LocalTier.ENTRY_OVERHEAD_BYTES;
        LocalTier small = new LocalTier(NearCacheSettings.builder().maximumWeight(perEntry * 10).build(),
                Duration.ofMinutes(1).toNanos());
        for (int i = 0; i < 1000; i++) {
            String key = String.format("k%04d", i);
            small.keep(key, new byte[valueBytes], small.version(key), small.epoch(), System.nanoTime());
        }
        assertThat(small.stats().size()).isLessThanOrEqualTo(10);
    }

    @Test
    void theDefaultBoundHoldsLargeValuesToTheDefaultByteBound() {
        // Values written by other clients may be large: with the defaults, 100 values of 1 MiB must not all be held.
        LocalTier tier = new LocalTier(NearCacheSettings.DEFAULTS, Duration.ofMinutes(1).toNanos());
        for (int i = 0; i < 100; i++) {
            String key = "big:" + i;
            tier.keep(key, new byte[1 << 20], tier.version(key), tier.epoch(), System.nanoTime());
        }
        tier.cleanUp();
        long held = 0;
        for (int i = 0; i < 100; i++) {
            LocalTier.Entry entry = tier.lookup("big:" + i);
            held += entry == null ? 0 : entry.value().length;
        }
        assertThat(held).as("bytes of values held").isLessThanOrEqualTo(NearCacheSettings.DEFAULT_MAXIMUM_WEIGHT_BYTES);
        assertThat(tier.weightedSize()).as("Caffeine's weighted size").isLessThanOrEqualTo(NearCacheSettings.DEFAULT_MAXIMUM_WEIGHT_BYTES);
    }

    /**
     * A server simulated by a counter: writers set it and then deliver the invalidation; readers
     * take the version, read the counter and keep what they read. Once a write's invalidation has
     * been delivered, the tier must never hold an older value, however the threads interleave.
     */
    @Test
    void noInterleavingLeavesAnOlderValueBehindAnInvalidation() throws Exception {
        String key = "k:hot";
        AtomicLong server = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong readsKept = new AtomicLong();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            Thread reader = new Thread(() -> {
                while (running.get()) {
                    long version = tier.version(key);
                    long epoch = tier.epoch();
                    long sentAt = System.nanoTime();
                    long read = server.get();
                    tier.keep(key, value(read), version, epoch, sentAt);
                    readsKept.incrementAndGet();
                }
            });
            reader.start();
            readers.add(reader);
        }
        long stale = 0;
        try {
            for (long written = 1; written <= 200_000; written++) {
                server.set(written);
                tier.invalidate(key);
                LocalTier.Entry entry = tier.lookup(key);
                if (entry != null && number(entry) < written) {
                    stale++;
                }
            }
        }
        finally {
            running.set(false);
            for (Thread reader : readers) {
                reader.join(10_000);
            }
        }
        assertThat(readsKept.get()).isPositive();
        assertThat(tier.stats().localPuts()).as("some replies were kept").isPositive();
        assertThat(stale).as("lookups after an invalidation that found an older value").isZero();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
