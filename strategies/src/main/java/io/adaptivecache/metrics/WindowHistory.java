package io.adaptivecache.metrics;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The last windows of one template, each with the wall-clock time it closed: a bounded ring, so
 * that whoever looks after an incident (the Actuator endpoint, the live page) sees the minutes
 * before it. Written once per window by the thread that closes the windows (never by a caller of
 * the template); its lock is only ever contended by a reader, so a cache call never waits on it.
 * Memory is bounded by the capacity: the oldest window is overwritten by the newest.
 */
public final class WindowHistory {

    // Filled in turn, as a ring: a slot is null until its first window is recorded.
    private final @Nullable Entry[] entries;
    private int next;
    private long recorded;

    /**
     * Creates an empty history.
     * @param capacity how many windows to keep; at least 1
     * @throws IllegalArgumentException if {@code capacity} is below 1
     */
    public WindowHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("A window history keeps at least 1 window, was asked for " + capacity);
        }
        this.entries = new Entry[capacity];
    }

    /**
     * Keeps a window, in place of the oldest once the history is full.
     * @param endEpochMillis when the window closed, in milliseconds since the epoch
     * @param sample the window's figures
     * @return the entry kept
     */
    public Entry record(long endEpochMillis, WindowSample sample) {
        Entry entry = new Entry(endEpochMillis, sample);
        synchronized (this.entries) {
            this.entries[this.next] = entry;
            this.next = (this.next + 1) % this.entries.length;
            this.recorded++;
        }
        return entry;
    }

    /**
     * The windows kept, oldest first.
     * @return a copy; empty before the first window
     */
    public List<Entry> snapshot() {
        synchronized (this.entries) {
            int size = (int) Math.min(this.recorded, this.entries.length);
            List<Entry> copy = new ArrayList<>(size);
            // Once full, the oldest entry is the one the next record overwrites.
            int oldest = this.recorded > this.entries.length ? this.next : 0;
            for (int i = 0; i < size; i++) {
                copy.add(this.entries[(oldest + i) % this.entries.length]);
            }
            return copy;
        }
    }

    /**
     * The newest window.
     * @return it, or {@code null} before the first
     */
    public @Nullable Entry latest() {
        synchronized (this.entries) {
            return this.recorded == 0 ? null : this.entries[(this.next + this.entries.length - 1) % this.entries.length];
        }
    }

    /**
     * How many windows the history keeps at most.
     * @return the capacity
     */
    public int capacity() {
        return this.entries.length;
    }

    /**
     * Windows recorded since the history was created, including those since overwritten.
     * @return the count
     */
    public long recorded() {
        synchronized (this.entries) {
            return this.recorded;
        }
    }

    /**
     * One window with the time it closed.
     * @param endEpochMillis when it closed, in milliseconds since the epoch
     * @param sample its figures
     */
    public record Entry(long endEpochMillis, WindowSample sample) {
    }
}
