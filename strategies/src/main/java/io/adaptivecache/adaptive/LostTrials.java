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
 * not one every dwell. The most recent few are kept.
 */
final class LostTrials {

    private static final int MAX_REMEMBERED = 8;

    private final long memoryNanos;
    private final Deque<Lost> lost = new ArrayDeque<>();

    LostTrials(Duration memory) {
        this.memoryNanos = memory.toNanos();
    }

    /** Remembers that {@code target} lost at the load the trial measured. */
    void add(StrategySpec target, Medians load, long now) {
        this.lost.addLast(new Lost(target, load.concurrency(), load.valueBytes(), load.roundTrip(), now));
        while (this.lost.size() > MAX_REMEMBERED) {
            this.lost.removeFirst();
        }
    }

    /** The loss that rules out {@code target} at this window's load, or {@code null}; forgets those too old. */
    @Nullable Lost matching(StrategySpec target, WindowSample window, long now) {
        while (!this.lost.isEmpty() && now - this.lost.peekFirst().atNanos() > this.memoryNanos) {
            this.lost.removeFirst();
        }
        for (Lost loss : this.lost) {
            if (loss.matches(target, window)) {
                return loss;
            }
        }
        return null;
    }

    /** One move that lost, and the load it lost at. */
    record Lost(StrategySpec target, double concurrency, double valueBytes, double roundTrip, long atNanos) {

        boolean matches(StrategySpec proposed, WindowSample window) {
            return this.target.equals(proposed) && Figures.within(window.concurrency(), this.concurrency, 2)
                    && (Math.max(window.meanValueBytes(), this.valueBytes) < 1024
                            || Figures.within(window.meanValueBytes(), this.valueBytes, 2))
                    && Figures.similarRoundTrip(window.minLatencyNanos(), this.roundTrip);
        }
    }
}
