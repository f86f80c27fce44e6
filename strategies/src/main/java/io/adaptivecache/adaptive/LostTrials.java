package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/**
 * Moves that lost their trial, and the load each lost at: the same move is not proposed again
 * while the load stays like that one (calls in flight within 2x, value size within 2x, the round
 * trip within 3x), for as long as the longest dwell. A rule whose premise does not hold on this
 * path (a blocking pool behind a proxy that spends a thread per connection) then costs one trial,
 * not one every dwell. A verdict between N connections and half as many at the cap stands for as
 * long as the load does: either way the rules would propose the loser again as soon as it is
 * forgotten, and a steady load would pay a trial, and two switches, every longest dwell. The most
 * recent few are kept.
 */
final class LostTrials {

    private static final int MAX_REMEMBERED = 8;

    private final long memoryNanos;
    private final Deque<Lost> lost = new ArrayDeque<>();

    LostTrials(Duration memory) {
        this.memoryNanos = memory.toNanos();
    }

    /**
     * Remembers that {@code target} lost at a load, for the longest dwell: the figures of the strategy
     * that stays, since its windows are the ones that would propose the move again.
     */
    void add(StrategySpec target, Medians load, long now) {
        add(target, load, now, false);
    }

    /**
     * Remembers that {@code target} lost at a load (the figures of the strategy that stays).
     * @param lasting whether the verdict stands for as long as the load does (until it is one of
     *        the oldest few), rather than for the longest dwell
     */
    void add(StrategySpec target, Medians load, long now, boolean lasting) {
        this.lost.addLast(new Lost(target, load.concurrency(), load.valueBytes(), load.roundTrip(), now, lasting));
        while (this.lost.size() > MAX_REMEMBERED) {
            this.lost.removeFirst();
        }
    }

    /** The loss that rules out {@code target} at this window's load, or {@code null}; forgets those too old. */
    @Nullable Lost matching(StrategySpec target, WindowSample window, long now) {
        this.lost.removeIf(loss -> !loss.lasting() && now - loss.atNanos() > this.memoryNanos);
        for (Lost loss : this.lost) {
            if (loss.matches(target, window)) {
                return loss;
            }
        }
        return null;
    }

    /** One move that lost, the load it lost at, and whether that verdict outlasts the longest dwell. */
    record Lost(StrategySpec target, double concurrency, double valueBytes, double roundTrip, long atNanos, boolean lasting) {

        boolean matches(StrategySpec proposed, WindowSample window) {
            return this.target.equals(proposed) && Figures.within(window.concurrency(), this.concurrency, 2)
                    && (Math.max(window.meanValueBytes(), this.valueBytes) < 1024
                            || Figures.within(window.meanValueBytes(), this.valueBytes, 2))
                    && Figures.similarRoundTrip(window.minLatencyNanos(), this.roundTrip);
        }
    }
}
