package io.adaptivecache.benchmarks.check;

/**
 * One operation of a history: who ran it, on which key, what it wrote or read, and when it was
 * sent and answered ({@link System#nanoTime()}). Values are numbers (every value the run writes
 * is decimal text), so that a history of millions of operations stays small.
 *
 * <p>A write that failed ({@code ok == false}) may still have taken effect, at any time after it
 * was sent (a command that timed out while the server was frozen runs when it thaws): the check
 * lets it explain a read but never counts it as having surely happened.
 *
 * @param process who ran it (an index into the run's process names)
 * @param kind what it was
 * @param key the key's index, or {@link #ALL_KEYS} for a flush, a database swap or a restart
 * @param value what a read returned or a write stored ({@link #ABSENT} for none, {@link #UNKNOWN}
 *        for a failed counter increment, {@link #UNREADABLE} for a read of something the run never writes);
 *        for {@link Kind#EXPIRE}, 1 if the key existed and got the expiry, 0 if not
 * @param ttlNanos the time to live it gave the key, 0 for none
 * @param start when it was sent
 * @param end when its answer (or failure) arrived
 * @param ok whether it completed without an exception
 * @param previous the value the key held just before this write ran, when the server told
 *        ({@code SET ... GET}; an increment that returned n ran on n - 1), else {@link #UNKNOWN}:
 *        it orders this write after the one that produced that value even where their times overlap
 */
public record Op(int process, Kind kind, int key, long value, long ttlNanos, long start, long end, boolean ok, long previous) {

    /** The key of an operation on every key. */
    public static final int ALL_KEYS = -1;

    /** The value of an absent key. */
    public static final long ABSENT = Long.MIN_VALUE;

    /** The value a failed increment stored, if it stored one. */
    public static final long UNKNOWN = Long.MIN_VALUE + 1;

    /** A read's value that is no number: no write of the run produced it. */
    public static final long UNREADABLE = Long.MIN_VALUE + 2;

    /** What an operation did. */
    public enum Kind {
        /** A read ({@code GET}, through a near cache). */
        GET,
        /** A store ({@code SET}, with {@code PX} if it has a time to live). */
        SET,
        /** A delete: the key is absent after it. */
        DEL,
        /** A counter increment: its value is the one it returned. */
        INCR,
        /** A time to live given to an existing key ({@code PEXPIRE}): absent once it runs out. */
        EXPIRE,
        /** {@code FLUSHALL}, {@code FLUSHDB} or memcached's {@code flush_all}: every key absent. */
        FLUSH,
        /** {@code SWAPDB 0 1} with database 1 empty: every key absent. */
        SWAPDB,
        /** The server killed and started again without persistence: every key absent. */
        RESTART;

        /** @return whether it changes what a key holds */
        public boolean isWrite() {
            return this != GET;
        }
    }

    /**
     * A read.
     * @param process who read
     * @param key the key
     * @param value what it returned
     * @param start when it was sent
     * @param end when it returned
     * @param ok false if it failed (then it is not checked)
     * @return the operation
     */
    public static Op read(int process, int key, long value, long start, long end, boolean ok) {
        return new Op(process, Kind.GET, key, value, 0, start, end, ok, UNKNOWN);
    }

    /**
     * A write; an increment that returned n is known to have run on n - 1.
     * @param process who wrote
     * @param kind what kind of write
     * @param key the key or {@link #ALL_KEYS}
     * @param value what it stored ({@link #ABSENT} for a delete or flush)
     * @param ttlNanos its time to live, 0 for none
     * @param start when it was sent
     * @param end when it returned or failed
     * @param ok whether it returned
     * @return the operation
     */
    public static Op write(int process, Kind kind, int key, long value, long ttlNanos, long start, long end, boolean ok) {
        long previous = kind == Kind.INCR && ok && value > 1 ? value - 1 : UNKNOWN;
        return new Op(process, kind, key, value, ttlNanos, start, end, ok, previous);
    }

    /**
     * This write, knowing the value the key held just before it ran.
     * @param previous that value
     * @return the write
     */
    public Op after(long previous) {
        return new Op(process, kind, key, value, ttlNanos, start, end, ok, previous);
    }

    /**
     * A value as the run writes it, decimal text, read back into a number.
     * @param bytes what a read returned, or null
     * @return the value, {@link #ABSENT} for null, {@link #UNREADABLE} if it is not a decimal number
     */
    public static long valueOf(byte[] bytes) {
        if (bytes == null) {
            return ABSENT;
        }
        if (bytes.length == 0 || bytes.length > 18) {
            return UNREADABLE;
        }
        long value = 0;
        for (byte b : bytes) {
            if (b < '0' || b > '9') {
                return UNREADABLE;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    /**
     * A value for display.
     * @param value a value
     * @return its text
     */
    public static String text(long value) {
        if (value == ABSENT) {
            return "(absent)";
        }
        if (value == UNKNOWN) {
            return "(unknown)";
        }
        if (value == UNREADABLE) {
            return "(not written by the run)";
        }
        return Long.toString(value);
    }
}
