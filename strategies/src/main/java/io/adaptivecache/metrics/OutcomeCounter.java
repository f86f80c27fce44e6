package io.adaptivecache.metrics;

import java.util.concurrent.atomic.LongAdder;

import io.adaptivecache.call.CallOutcome;

/**
 * Calls counted by how they ended, wait-free: one {@link LongAdder} per {@link CallOutcome}, so
 * that recording a call is one add whatever its outcome, and calls, errors and each kind of failure
 * are taken from one {@link Tally} when read, which keeps them consistent with each other (errors
 * never above calls). It also keeps the totals at the last closed window, for each window's counts.
 */
final class OutcomeCounter {

    private static final CallOutcome[] OUTCOMES = CallOutcome.values();

    private final LongAdder[] counts = new LongAdder[OUTCOMES.length];

    // Touched only by the one thread that closes windows.
    private long[] atLastWindow = new long[OUTCOMES.length];

    OutcomeCounter() {
        for (int i = 0; i < this.counts.length; i++) {
            this.counts[i] = new LongAdder();
        }
    }

    /**
     * Counts one call. Hot path: one add, no allocation.
     * @param outcome how it ended
     */
    void record(CallOutcome outcome) {
        this.counts[outcome.ordinal()].increment();
    }

    /**
     * The calls counted since the start.
     * @return each outcome's count
     */
    Tally totals() {
        long[] totals = new long[OUTCOMES.length];
        for (int i = 0; i < totals.length; i++) {
            totals[i] = this.counts[i].sum();
        }
        return new Tally(totals);
    }

    /**
     * Closes a window. Call from one thread only.
     * @return each outcome's count since the last window closed
     */
    Tally closeWindow() {
        long[] totals = totals().byOutcome();
        long[] window = new long[OUTCOMES.length];
        for (int i = 0; i < window.length; i++) {
            window[i] = totals[i] - this.atLastWindow[i];
        }
        this.atLastWindow = totals;
        return new Tally(window);
    }

    /**
     * Calls by outcome, all read at one time.
     * @param byOutcome each outcome's count, by its ordinal; not copied
     */
    record Tally(long[] byOutcome) {

        /**
         * The calls that ended so.
         * @param outcome an outcome
         * @return the count
         */
        long of(CallOutcome outcome) {
            return this.byOutcome[outcome.ordinal()];
        }

        /**
         * Every call, whatever its outcome.
         * @return the count
         */
        long all() {
            long all = 0;
            for (long count : this.byOutcome) {
                all += count;
            }
            return all;
        }

        /**
         * The calls that did not succeed, the rejected ones among them.
         * @return the count
         */
        long failed() {
            return all() - of(CallOutcome.SUCCESS);
        }
    }
}
