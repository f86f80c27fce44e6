package io.adaptivecache.benchmarks.check;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.benchmarks.check.Op.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker on hand-made histories (times in milliseconds, a 100 ms bound): a valid history
 * passes, a read stale by twice the bound is flagged with what it should have seen, and the
 * edges: exactly at the bound, overlapping writes, expiry, failed writes, flushes, values no
 * write produced.
 */
class HistoryCheckTests {

    private static final long BOUND = ms(100);
    private static final List<String> KEYS = List.of("k0", "k1");
    private static final List<String> PROCESSES = List.of("near-0", "plain-0");

    private final List<Op> ops = new ArrayList<>();

    private static long ms(double millis) {
        return Math.round(millis * 1_000_000);
    }

    private HistoryCheckTests write(Kind kind, int key, long value, double start, double end) {
        ops.add(Op.write(1, kind, key, value, 0, ms(start), ms(end), true));
        return this;
    }

    private HistoryCheckTests read(int key, long value, double start, double end) {
        ops.add(Op.read(0, key, value, ms(start), ms(end), true));
        return this;
    }

    private HistoryCheck.Result check() {
        // Every history of the run starts with a flush, as here.
        ops.add(Op.write(1, Kind.FLUSH, Op.ALL_KEYS, Op.ABSENT, 0, ms(-1), ms(-0.5), true));
        return HistoryCheck.check(ops, BOUND, KEYS, PROCESSES, 0);
    }

    @Test
    void aValidHistoryPasses() {
        write(Kind.SET, 0, 1, 10, 11).read(0, 1, 12, 13)
                .write(Kind.SET, 0, 2, 20, 21).read(0, 1, 22, 23) // within the bound of the write it missed
                .read(0, 2, 24, 25)
                .write(Kind.DEL, 0, Op.ABSENT, 30, 31).read(0, Op.ABSENT, 40, 41)
                .read(1, Op.ABSENT, 5, 6); // the initial state
        HistoryCheck.Result result = check();
        assertThat(result.violations()).as(result.summary()).isZero();
        assertThat(result.reads()).isEqualTo(5);
        assertThat(result.staleReads()).as("the read of 1 after 2 completed").isEqualTo(1);
        assertThat(result.staleMillis(50)).isBetween(0.99, 1.01);
    }

    @Test
    void aReadStaleByTwiceTheBoundIsFlaggedWithWhatItShouldHaveSeen() {
        write(Kind.SET, 0, 1, 0, 1).write(Kind.SET, 0, 2, 10, 11).read(0, 1, 211, 212);
        HistoryCheck.Result result = check();
        assertThat(result.violations()).isEqualTo(1);
        assertThat(result.worst()).isNotNull();
        assertThat(result.worst().staleNanos()).isEqualTo(ms(200));
        assertThat(result.worst().returned()).isEqualTo(1);
        assertThat(result.worst().toString()).contains("k0", "returned 1", "stale by 200.000 ms", "SET 2 by plain-0",
                "produced by SET 1");
    }

    @Test
    void exactlyAtTheBoundIsValidAndJustPastItIsNot() {
        write(Kind.SET, 0, 1, 0, 1).write(Kind.SET, 0, 2, 10, 11).read(0, 1, 111, 112);
        assertThat(check().violations()).isZero();
        ops.clear();
        write(Kind.SET, 0, 1, 0, 1).write(Kind.SET, 0, 2, 10, 11).read(0, 1, 111.001, 112);
        assertThat(check().violations()).isEqualTo(1);
    }

    @Test
    void aWriteThatOverlapsTheOneItMightFollowDoesNotSurelySupersedeIt() {
        // 2 may have taken effect first: 1 may be current forever after.
        write(Kind.SET, 0, 1, 0, 10).write(Kind.SET, 0, 2, 5, 15).read(0, 1, 1000, 1001).read(0, 2, 1002, 1003);
        assertThat(check().violations()).isZero();
    }

    @Test
    void aWriteTheServerRanOnAValueSupersedesItEvenWhereTheirTimesOverlap() {
        // The plain SET ... GET replaced 1: it ran after the store of 1, although both were on their way together.
        write(Kind.SET, 0, 1, 0, 10);
        ops.add(Op.write(1, Kind.SET, 0, 2, 0, ms(5), ms(15), true).after(1));
        read(0, 1, 400, 401);
        HistoryCheck.Result result = check();
        assertThat(result.violations()).isEqualTo(1);
        assertThat(result.worst().staleNanos()).isEqualTo(ms(385));
        assertThat(result.worst().supersededBy()).contains("SET 2 by plain-0", "which the server ran on the value read");
        ops.clear();
        // An increment that returned 2 ran on 1 likewise; a value produced twice is judged by its latest production only.
        write(Kind.SET, 0, 1, 0, 10).write(Kind.INCR, 0, 2, 5, 15).read(0, 1, 400, 401);
        assertThat(check().violations()).isEqualTo(1);
        ops.clear();
        write(Kind.INCR, 0, 1, 0, 10).write(Kind.INCR, 0, 2, 5, 15).write(Kind.DEL, 0, Op.ABSENT, 20, 21)
                .write(Kind.INCR, 0, 1, 30, 40).read(0, 1, 60, 61).read(0, 1, 100, 101);
        assertThat(check().violations()).isZero();
    }

    @Test
    void aReadMayReturnAWriteThatStartedBeforeItEnded() {
        write(Kind.SET, 0, 1, 0, 1).read(0, 2, 50, 60).write(Kind.SET, 0, 2, 59, 300);
        assertThat(check().violations()).isZero();
        ops.clear();
        write(Kind.SET, 0, 1, 0, 1).read(0, 2, 50, 60).write(Kind.SET, 0, 2, 61, 300);
        HistoryCheck.Result result = check();
        assertThat(result.violations()).as("a value written only after the read ended").isEqualTo(1);
        assertThat(result.worst().toString()).contains("written only after the read ended");
    }

    @Test
    void anExpiredValueIsAbsentOnceItsTtlRanOutAndServingItLaterIsFlagged() {
        ops.add(Op.write(1, Kind.SET, 0, 1, ms(50), ms(0), ms(1), true));
        read(0, Op.ABSENT, 500, 501);
        assertThat(check().violations()).as("absent after its TTL").isZero();
        ops.clear();
        ops.add(Op.write(1, Kind.SET, 0, 1, ms(50), ms(0), ms(1), true));
        read(0, 1, 100, 101).read(0, 1, 500, 501);
        HistoryCheck.Result result = check();
        assertThat(result.violations()).as(result.summary()).isEqualTo(1);
        assertThat(result.worst().staleNanos()).isEqualTo(ms(500 - 53));
        assertThat(result.worst().supersededBy()).startsWith("expiry (SET 1 with a TTL of 50 ms)");
    }

    @Test
    void anExpireOfAnExistingKeyMakesItAbsentUnlessAnotherWriteMayHaveReplacedItsTtl() {
        write(Kind.SET, 0, 1, 0, 1);
        ops.add(Op.write(1, Kind.EXPIRE, 0, 1, ms(20), ms(10), ms(11), true));
        read(0, 1, 400, 401);
        assertThat(check().violations()).isEqualTo(1);
        ops.clear();
        write(Kind.SET, 0, 1, 0, 1);
        ops.add(Op.write(1, Kind.EXPIRE, 0, 1, ms(20), ms(10), ms(11), true));
        write(Kind.SET, 0, 2, 15, 16); // a SET without a TTL removes the expiry
        read(0, 2, 400, 401);
        assertThat(check().violations()).isZero();
        ops.clear();
        write(Kind.SET, 0, 1, 0, 1);
        ops.add(Op.write(1, Kind.EXPIRE, 0, 0, ms(20), ms(10), ms(11), true)); // the key did not exist for it
        read(0, 1, 400, 401);
        assertThat(check().violations()).isZero();
    }

    @Test
    void aFailedWriteMayTakeEffectLateButNeverSupersedes() {
        write(Kind.SET, 0, 1, 0, 1);
        ops.add(Op.write(1, Kind.SET, 0, 2, 0, ms(10), ms(500), false)); // timed out; applied when the server thawed
        read(0, 2, 5000, 5001).read(0, 1, 5002, 5003);
        assertThat(check().violations()).isZero();
    }

    @Test
    void aFlushSupersedesEveryKey() {
        write(Kind.SET, 1, 7, 0, 1);
        ops.add(Op.write(1, Kind.SWAPDB, Op.ALL_KEYS, Op.ABSENT, 0, ms(10), ms(11), true));
        read(1, Op.ABSENT, 20, 21).read(1, 7, 300, 301);
        HistoryCheck.Result result = check();
        assertThat(result.violations()).isEqualTo(1);
        assertThat(result.worst().supersededBy()).startsWith("SWAPDB by plain-0");
    }

    @Test
    void aValueNoWriteProducedIsOlderThanTheHistory() {
        read(0, 42, 200, 201).read(0, Op.UNREADABLE, 300, 301);
        HistoryCheck.Result result = check();
        assertThat(result.violations()).isEqualTo(2);
        assertThat(result.worst().supersededBy()).contains("FLUSH", "no write of the history produced the value read");
    }

    @Test
    void aValueWrittenTwiceIsJudgedByItsLatestWrite() {
        write(Kind.INCR, 0, 1, 2, 3).write(Kind.DEL, 0, Op.ABSENT, 10, 11).write(Kind.INCR, 0, 1, 20, 21)
                .write(Kind.INCR, 0, 2, 30, 31).read(0, 1, 100, 101);
        assertThat(check().violations()).isZero();
        ops.clear();
        write(Kind.INCR, 0, 1, 2, 3).write(Kind.DEL, 0, Op.ABSENT, 10, 11).write(Kind.INCR, 0, 1, 20, 21)
                .write(Kind.INCR, 0, 2, 30, 31).read(0, 1, 200, 201);
        HistoryCheck.Result result = check();
        assertThat(result.violations()).isEqualTo(1);
        assertThat(result.worst().staleNanos()).isEqualTo(ms(169));
    }

    @Test
    void failedReadsAreCountedNotChecked() {
        write(Kind.SET, 0, 1, 0, 1).write(Kind.SET, 0, 2, 10, 11);
        ops.add(Op.read(0, 0, Op.UNKNOWN, ms(500), ms(1500), false));
        HistoryCheck.Result result = check();
        assertThat(result.reads()).isZero();
        assertThat(result.failedReads()).isEqualTo(1);
        assertThat(result.violations()).isZero();
    }

    @Test
    void resultsOfSegmentsAddUp() {
        write(Kind.SET, 0, 1, 0, 1).write(Kind.SET, 0, 2, 10, 11).read(0, 1, 311, 312).read(0, 1, 61, 62);
        HistoryCheck.Result one = check();
        HistoryCheck.Result both = one.plus(one);
        assertThat(both.reads()).isEqualTo(4);
        assertThat(both.violations()).isEqualTo(2);
        assertThat(both.staleness().getTotalCount()).isEqualTo(4);
        assertThat(TimeUnit.NANOSECONDS.toMillis(both.worst().staleNanos())).isEqualTo(300);
    }
}
