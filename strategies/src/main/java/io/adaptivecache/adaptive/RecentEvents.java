package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/** The times of recent events (switches, rollbacks) within a sliding period, on the policy's clock. */
final class RecentEvents {

    private final long periodNanos;
    private final Deque<Long> times = new ArrayDeque<>();

    RecentEvents(Duration period) {
        this.periodNanos = period.toNanos();
    }

    /** Forgets the events more than a period before {@code now}. */
    void expire(long now) {
        while (!this.times.isEmpty() && now - this.times.peekFirst() > this.periodNanos) {
            this.times.removeFirst();
        }
    }

    /** Records an event at {@code now}, after forgetting those a period older. */
    void add(long now) {
        expire(now);
        this.times.addLast(now);
    }

    /** The events remembered, as of the last {@link #expire} or {@link #add}. */
    int size() {
        return this.times.size();
    }
}
