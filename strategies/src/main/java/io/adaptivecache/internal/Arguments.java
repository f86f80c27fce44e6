package io.adaptivecache.internal;

import java.time.Duration;

/**
 * The checks the core's builders and settings make of the values they are given, each failing
 * with an {@link IllegalArgumentException} that names the setting and the value, so that every
 * builder words a bad value the same way.
 */
public final class Arguments {

    private Arguments() {
    }

    /**
     * Checks a count or size with a lower bound.
     * @param value the value given
     * @param min the smallest allowed
     * @param what the setting's name, for the message, such as {@code The request queue size}
     * @return the value
     * @throws IllegalArgumentException if it is below {@code min}
     */
    public static int atLeast(int value, int min, String what) {
        return Math.toIntExact(atLeast((long) value, min, what));
    }

    /**
     * Checks a count or size with a lower bound.
     * @param value the value given
     * @param min the smallest allowed
     * @param what the setting's name, for the message, such as {@code The near cache's maximum entries}
     * @return the value
     * @throws IllegalArgumentException if it is below {@code min}
     */
    public static long atLeast(long value, long min, String what) {
        if (value < min) {
            throw new IllegalArgumentException(what + " must be at least " + min + ", was " + value);
        }
        return value;
    }

    /**
     * Checks a duration that must be longer than zero.
     * @param duration the value given
     * @param what the setting's name, for the message, such as {@code heartbeat interval}
     * @return the value
     * @throws IllegalArgumentException if it is null, zero or negative
     */
    public static Duration positive(Duration duration, String what) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("The " + what + " must be positive, was " + duration);
        }
        return duration;
    }
}
