package io.adaptivecache.benchmarks.load;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The staleness instrument against stores whose staleness is known: none, and total. */
class StalenessProbeTests {

    private static final Duration RUN = Duration.ofMillis(300);

    @Test
    void aReaderOfTheStoreItselfShouldShowNoWriteStale() {
        ConcurrentHashMap<String, byte[]> store = new ConcurrentHashMap<>();
        StalenessProbe probe = probe(store, store::get);
        Histogram staleness = run(probe);
        assertThat(staleness.getTotalCount()).as("writes in %s every 2 ms", RUN).isGreaterThan(20);
        assertThat(staleness.getMaxValue()).as("a read that began after a write completed saw it").isZero();
    }

    @Test
    void aReaderThatNeverSeesAWriteShouldShowEveryWriteStaleForAboutTheRestOfTheRun() {
        StalenessProbe probe = probe(new ConcurrentHashMap<>(), key -> null);
        Histogram staleness = run(probe);
        assertThat(staleness.getTotalCount()).isGreaterThan(20);
        assertThat(staleness.getMinNonZeroValue()).isEqualTo(staleness.getMinValue()).as("every write stale").isPositive();
        // The first write stayed unseen for the whole run and the reader's catch-up wait after it.
        assertThat(staleness.getMaxValue()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toMicros(RUN.toMillis()) * 9 / 10);
    }

    @Test
    void aSecondRunShouldMeasureOnlyItsOwnWrites() {
        ConcurrentHashMap<String, byte[]> store = new ConcurrentHashMap<>();
        StalenessProbe probe = probe(store, store::get);
        Histogram first = run(probe);
        Histogram second = run(probe);
        assertThat(second.getTotalCount()).isBetween(first.getTotalCount() / 3, first.getTotalCount() * 3);
        assertThat(second.getMaxValue()).isZero();
    }

    /** A probe writing into {@code store} every 2 ms and reading through {@code reader} every 0.2 ms. */
    private static StalenessProbe probe(ConcurrentHashMap<String, byte[]> store, StalenessProbe.Reader reader) {
        return new StalenessProbe("probe", store::put, reader, () -> {
        }, Duration.ofMillis(2), Duration.ofNanos(200_000));
    }

    private static Histogram run(StalenessProbe probe) {
        probe.start();
        LockSupport.parkNanos(RUN.toNanos());
        return probe.stop();
    }
}
