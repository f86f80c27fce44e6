package io.adaptivecache.benchmarks.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * Checks a history: every read returned a value that was current at some moment within
 * {@code [start - bound, end]}.
 *
 * <p>For a read R of key k returning v: R is valid if a write W of k produced v (a store of v, an
 * increment that returned v; for an absent key a delete, an expiry, a flush, a swap or a restart)
 * such that W could have taken effect before R ended ({@code W.start <= R.end}) and no other
 * write W2 of k surely followed W and surely completed more than the bound before R started
 * ({@code W2.start > W.end}, or the server said W2 ran on v, and {@code W2.end < R.start - bound}).
 * Of the writes that produced v,
 * the one that ended last is the most favourable, so only it is tried. A value no write of the
 * history produced is taken as the initial state's (the run starts each history with a flush,
 * more than the bound before its first read, so such a value is a violation).
 *
 * <p>How stale a read is: how long before it started a write that surely followed W had
 * completed ({@code R.start - min W2.end}), 0 if none had. A read is a violation when that is more
 * than the bound; the distribution of the positive ones is the staleness of valid reads.
 *
 * <p>Expiry is a write of absence at {@code [cmd.start + ttl, cmd.end + ttl]} (widened by the
 * server clock's millisecond), and counts as surely having happened only if no other write of
 * the key (which could have replaced the key or its time to live) overlaps the time from the
 * command to the expiry. A failed write may have taken effect at any time after it was sent: it
 * can explain a read, never supersede one; for the expiry rule it is assumed to take effect
 * within {@link #LATE_EFFECT_NANOS} of being sent.
 */
public final class HistoryCheck {

    /** How long after it was sent a failed write is assumed to have taken effect, if ever (commands time out within 2 s). */
    static final long LATE_EFFECT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The server's clock has millisecond resolution: an expiry may come this much before the command's start plus its TTL. */
    private static final long EXPIRY_EARLY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** ... and this much after its end plus its TTL. */
    private static final long EXPIRY_LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private static final int EXAMPLES = 10;

    private HistoryCheck() {
    }

    /**
     * Checks a history.
     * @param ops every operation, in any order
     * @param boundNanos the staleness bound
     * @param keys the keys' names, by index
     * @param processes the processes' names, by index
     * @param origin the time that reported times count from ({@link System#nanoTime()})
     * @return the reads checked, the violations and the staleness of valid reads
     */
    public static Result check(List<Op> ops, long boundNanos, List<String> keys, List<String> processes, long origin) {
        List<List<Op>> writes = new ArrayList<>();
        List<List<Op>> reads = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            writes.add(new ArrayList<>());
            reads.add(new ArrayList<>());
        }
        long failedReads = 0;
        for (Op op : ops) {
            if (op.kind() == Op.Kind.GET) {
                if (op.ok()) {
                    reads.get(op.key()).add(op);
                }
                else {
                    failedReads++;
                }
            }
            else if (op.key() == Op.ALL_KEYS) {
                writes.forEach(list -> list.add(op));
            }
            else {
                writes.get(op.key()).add(op);
            }
        }
        Tally tally = new Tally(boundNanos, keys, processes, origin);
        for (int k = 0; k < keys.size(); k++) {
            new KeyCheck(writes.get(k)).check(k, reads.get(k), tally);
        }
        return new Result(tally.reads, failedReads, tally.stale, tally.violations, tally.staleness, tally.worst,
                List.copyOf(tally.examples), boundNanos);
    }

    /**
     * A read that returned a value older than the bound allows.
     * @param key the key
     * @param process who read
     * @param startMillis when the read was sent, from the run's start
     * @param endMillis when it returned
     * @param returned what it returned
     * @param supersededBy the write that surely followed the one that produced it and completed first
     * @param staleNanos how long before the read started that write had completed; {@link Long#MAX_VALUE} for a read of a
     *        value written only after it ended
     */
    public record Violation(String key, String process, double startMillis, double endMillis, long returned,
            String supersededBy, long staleNanos) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s read by %s over [%.3f, %.3f] ms returned %s, %s", key, process, startMillis,
                    endMillis, Op.text(returned), staleNanos == Long.MAX_VALUE ? supersededBy
                            : String.format(Locale.ROOT, "stale by %.3f ms: superseded by %s", staleNanos / 1e6, supersededBy));
        }
    }

    /**
     * What a check found.
     * @param reads reads checked (those that returned)
     * @param failedReads reads that failed, not checked
     * @param staleReads valid or not, reads that returned a value older than a write completed before they started
     * @param violations reads stale by more than the bound
     * @param staleness how stale the stale reads were (nanoseconds)
     * @param worst the stalest violation, or null
     * @param examples the first violations found, one per incident (a value read after the same write superseded it)
     * @param boundNanos the bound checked against
     */
    public record Result(long reads, long failedReads, long staleReads, long violations, Histogram staleness,
            @Nullable Violation worst, List<Violation> examples, long boundNanos) {

        /**
         * An empty result, to merge into.
         * @param boundNanos the bound
         * @return the result
         */
        public static Result empty(long boundNanos) {
            return new Result(0, 0, 0, 0, new Histogram(3), null, List.of(), boundNanos);
        }

        /**
         * This result and another's, as one.
         * @param other the other
         * @return both
         */
        public Result plus(Result other) {
            Histogram both = staleness.copy();
            both.add(other.staleness);
            Violation stalest = worst == null || (other.worst != null && other.worst.staleNanos() > worst.staleNanos())
                    ? other.worst : worst;
            List<Violation> found = new ArrayList<>(examples);
            other.examples.stream().limit(Math.max(0, EXAMPLES - found.size())).forEach(found::add);
            return new Result(reads + other.reads, failedReads + other.failedReads, staleReads + other.staleReads,
                    violations + other.violations, both, stalest, List.copyOf(found), Math.max(boundNanos, other.boundNanos));
        }

        /**
         * A quantile of the stale reads' staleness.
         * @param quantile between 0 and 100
         * @return milliseconds, 0 if no read was stale
         */
        public double staleMillis(double quantile) {
            return staleness.getTotalCount() == 0 ? 0 : staleness.getValueAtPercentile(quantile) / 1e6;
        }

        /** @return a line for logs and assertion messages */
        public String summary() {
            return String.format(Locale.ROOT, "%,d reads checked (%,d failed, not checked), %,d violations of the %.0f ms bound;"
                    + " %,d stale reads, staleness p50 %.3f ms, p99 %.3f ms, max %.3f ms; worst: %s",
                    reads, failedReads, violations, boundNanos / 1e6, staleReads, staleMillis(50), staleMillis(99),
                    staleness.getTotalCount() == 0 ? 0 : staleness.getMaxValue() / 1e6, worst);
        }
    }

    /** The counts of one check. */
    private static final class Tally {

        final long bound;
        final List<String> keys;
        final List<String> processes;
        final long origin;
        final Histogram staleness = new Histogram(3);
        final List<Violation> examples = new ArrayList<>();
        long reads;
        long stale;
        long violations;
        Violation worst;

        Tally(long bound, List<String> keys, List<String> processes, long origin) {
            this.bound = bound;
            this.keys = keys;
            this.processes = processes;
            this.origin = origin;
        }

        void violation(int key, Op read, long staleNanos, String supersededBy) {
            violations++;
            Violation violation = new Violation(keys.get(key), process(read.process()), (read.start() - origin) / 1e6,
                    (read.end() - origin) / 1e6, read.value(), supersededBy, staleNanos);
            // One example per stale copy: the reads of one copy after one superseding write are one incident.
            if (examples.size() < EXAMPLES && examples.stream().noneMatch(seen -> seen.supersededBy().equals(supersededBy))) {
                examples.add(violation);
            }
            if (worst == null || staleNanos > worst.staleNanos()) {
                worst = violation;
            }
        }

        String process(int index) {
            return index >= 0 && index < processes.size() ? processes.get(index) : "process " + index;
        }
    }

    /** A write's effect on one key: a value it may have produced during [start, end]. */
    private record Effect(long start, long end, long value, Op source, boolean expiry) {

        String describe(Tally tally) {
            String what = expiry ? "expiry (" + source.kind() + (source.kind() == Op.Kind.SET ? " " + Op.text(source.value()) : "")
                    + " with a TTL of " + TimeUnit.NANOSECONDS.toMillis(source.ttlNanos()) + " ms)"
                    : source.kind() + (source.kind().isWrite() && source.key() != Op.ALL_KEYS ? " " + Op.text(value) : "");
            return String.format(Locale.ROOT, "%s by %s, over [%.3f, %.3f] ms", what, tally.process(source.process()),
                    (start - tally.origin) / 1e6, (end - tally.origin) / 1e6);
        }
    }

    /** The writes of one key, indexed for its reads. */
    private static final class KeyCheck {

        /** Writes that surely took effect, by start; the least end from each index on, and whose it is. */
        private final Effect[] sure;
        private final long[] sureStarts;
        private final long[] minEndFrom;
        private final int[] minEndAt;
        /** Every write that may have produced a value, by value. */
        private final Map<Long, Candidates> byValue = new HashMap<>();
        /** Per value, the write that surely ran on it (the server said so) and completed first. */
        private final Map<Long, Effect> firstRunOn = new HashMap<>();

        KeyCheck(List<Op> writes) {
            writes.sort(Comparator.comparingLong(Op::start));
            long longestOk = 0;
            List<Op> failed = new ArrayList<>();
            for (Op op : writes) {
                if (op.ok()) {
                    longestOk = Math.max(longestOk, op.end() - op.start());
                }
                else {
                    failed.add(op);
                }
            }
            long[] starts = writes.stream().mapToLong(Op::start).toArray();
            long[] failedStarts = failed.stream().mapToLong(Op::start).toArray();
            List<Effect> sureEffects = new ArrayList<>();
            Map<Long, List<Effect>> candidates = new HashMap<>();
            for (Op op : writes) {
                long end = op.ok() ? op.end() : Long.MAX_VALUE;
                if (op.ok() && op.previous() != Op.UNKNOWN && op.previous() != Op.ABSENT && op.kind() != Op.Kind.EXPIRE) {
                    Effect ranOn = new Effect(op.start(), op.end(), op.kind() == Op.Kind.DEL ? Op.ABSENT : op.value(), op, false);
                    firstRunOn.merge(op.previous(), ranOn, (one, other) -> one.end() <= other.end() ? one : other);
                }
                if (op.kind() != Op.Kind.EXPIRE) {
                    long value = op.kind() == Op.Kind.INCR && !op.ok() ? Op.UNKNOWN
                            : op.kind() == Op.Kind.SET || op.kind() == Op.Kind.INCR ? op.value() : Op.ABSENT;
                    Effect effect = new Effect(op.start(), end, value, op, false);
                    candidates.computeIfAbsent(value, v -> new ArrayList<>()).add(effect);
                    if (op.ok()) {
                        sureEffects.add(effect);
                    }
                }
                boolean expires = op.ttlNanos() > 0 && (op.kind() == Op.Kind.SET || (op.kind() == Op.Kind.EXPIRE && op.value() != 0));
                if (expires) {
                    long expiryStart = op.start() + op.ttlNanos() - EXPIRY_EARLY_NANOS;
                    long expiryEnd = op.ok() ? op.end() + op.ttlNanos() + EXPIRY_LATE_NANOS : Long.MAX_VALUE;
                    Effect expiry = new Effect(expiryStart, expiryEnd, Op.ABSENT, op, true);
                    candidates.computeIfAbsent(Op.ABSENT, v -> new ArrayList<>()).add(expiry);
                    if (op.ok() && untouched(op, expiryEnd, writes, starts, longestOk, failed, failedStarts)) {
                        sureEffects.add(expiry);
                    }
                }
            }
            sureEffects.sort(Comparator.comparingLong(Effect::start));
            int n = sureEffects.size();
            this.sure = sureEffects.toArray(new Effect[0]);
            this.sureStarts = new long[n];
            this.minEndFrom = new long[n + 1];
            this.minEndAt = new int[n + 1];
            this.minEndFrom[n] = Long.MAX_VALUE;
            this.minEndAt[n] = -1;
            for (int i = n - 1; i >= 0; i--) {
                sureStarts[i] = sure[i].start();
                boolean earlier = sure[i].end() < minEndFrom[i + 1];
                minEndFrom[i] = earlier ? sure[i].end() : minEndFrom[i + 1];
                minEndAt[i] = earlier ? i : minEndAt[i + 1];
            }
            candidates.forEach((value, effects) -> byValue.put(value, new Candidates(effects)));
        }

        /**
         * Whether no write but the expiring one could have touched the key between the expiring
         * command and the expiry: a store (or a delete followed by an increment) would have
         * removed the time to live, a later expire changed it.
         */
        private static boolean untouched(Op expiring, long expiryEnd, List<Op> writes, long[] starts, long longestOk,
                List<Op> failed, long[] failedStarts) {
            for (int i = lastAtOrBefore(starts, expiryEnd); i >= 0 && starts[i] >= expiring.start() - longestOk; i--) {
                Op other = writes.get(i);
                if (other != expiring && other.ok() && other.end() >= expiring.start()) {
                    return false;
                }
            }
            for (int i = lastAtOrBefore(failedStarts, expiryEnd); i >= 0 && failedStarts[i] >= expiring.start() - LATE_EFFECT_NANOS; i--) {
                if (failed.get(i) != expiring) {
                    return false;
                }
            }
            return true;
        }

        void check(int key, List<Op> reads, Tally tally) {
            Candidates unknown = byValue.get(Op.UNKNOWN);
            for (Op read : reads) {
                tally.reads++;
                Candidates produced = byValue.get(read.value());
                Effect best = produced == null ? null : produced.latestEndingStartedBy(read.end());
                if (unknown != null && read.value() != Op.ABSENT) {
                    Effect maybe = unknown.latestEndingStartedBy(read.end());
                    if (maybe != null && (best == null || maybe.end() > best.end())) {
                        best = maybe;
                    }
                }
                if (best == null && produced != null) {
                    // Every write of the value started after the read ended: it read the future.
                    tally.violation(key, read, Long.MAX_VALUE, "a value written only after the read ended, by "
                            + produced.first().describe(tally));
                    continue;
                }
                if (best != null && best.end() == Long.MAX_VALUE) {
                    continue; // a failed write that produced it may have taken effect at any time since
                }
                // No write produced it: the initial state's, older than every write.
                int from = best == null ? 0 : firstAfter(sureStarts, best.end());
                Effect next = minEndAt[from] < 0 ? null : sure[minEndAt[from]];
                // A write the server ran on this very value follows it, however their times overlap; only for a value one
                // write produced (a value produced twice may have been read from its second production).
                Effect ranOn = best != null && produced != null && produced.single() ? firstRunOn.get(read.value()) : null;
                if (ranOn != null && (next == null || ranOn.end() < next.end())) {
                    next = ranOn;
                }
                if (next == null) {
                    continue;
                }
                long staleNanos = read.start() - next.end();
                if (staleNanos <= 0) {
                    continue;
                }
                tally.stale++;
                tally.staleness.recordValue(staleNanos);
                if (staleNanos > tally.bound) {
                    tally.violation(key, read, staleNanos, next.describe(tally) + (next == ranOn ? ", which the server ran on the value read" : "")
                            + (best == null
                            ? "; no write of the history produced the value read" : "; the value read was produced by " + best.describe(tally)));
                }
            }
        }
    }

    /** The writes that may have produced one value, by start, with the latest end up to each. */
    private static final class Candidates {

        private final long[] starts;
        private final Effect[] latestEndingUpTo;

        Candidates(List<Effect> effects) {
            effects.sort(Comparator.comparingLong(Effect::start));
            this.starts = new long[effects.size()];
            this.latestEndingUpTo = new Effect[effects.size()];
            Effect latest = null;
            for (int i = 0; i < effects.size(); i++) {
                Effect effect = effects.get(i);
                starts[i] = effect.start();
                if (latest == null || effect.end() > latest.end()) {
                    latest = effect;
                }
                latestEndingUpTo[i] = latest;
            }
        }

        boolean single() {
            return starts.length == 1;
        }

        Effect first() {
            return latestEndingUpTo[0];
        }

        @Nullable Effect latestEndingStartedBy(long time) {
            int last = lastAtOrBefore(starts, time);
            return last < 0 ? null : latestEndingUpTo[last];
        }
    }

    /** The index of the last element at most {@code value} in a sorted array, -1 if none. */
    static int lastAtOrBefore(long[] sorted, long value) {
        int at = Arrays.binarySearch(sorted, value);
        if (at >= 0) {
            while (at + 1 < sorted.length && sorted[at + 1] == value) {
                at++;
            }
            return at;
        }
        return -at - 2;
    }

    /** The index of the first element greater than {@code value} in a sorted array (its length if none). */
    static int firstAfter(long[] sorted, long value) {
        return lastAtOrBefore(sorted, value) + 1;
    }
}
