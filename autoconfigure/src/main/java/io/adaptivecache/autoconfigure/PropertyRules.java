package io.adaptivecache.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

/**
 * The rules {@code adaptive-cache.*} values are checked against, each stated once with its one
 * message: a value that breaks one fails as an {@link InvalidAdaptiveCachePropertyException}
 * naming the property, which Spring Boot's failure analysis reports with where it was set.
 * The properties classes apply them when they are bound, when a value may still be null (an
 * empty string binds to null), so every value checked may be.
 */
final class PropertyRules {

    private PropertyRules() {
    }

    /** A duration above zero. */
    static void positive(String property, @Nullable Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be a positive duration, such as 500ms or 2s");
        }
    }

    /** A duration of zero or more, where zero has a meaning of its own (given by {@code zeroMeans}). */
    static void notNegative(String property, @Nullable Duration value, String zeroMeans) {
        if (value == null || value.isNegative()) {
            throw new InvalidAdaptiveCachePropertyException(property, value,
                    "it must be zero (" + zeroMeans + ") or a positive duration");
        }
    }

    /** A whole number of at least {@code min}. */
    static void atLeast(String property, long value, long min) {
        atLeast(property, value, min, "");
    }

    /** A whole number of at least {@code min}, with what a smaller value would have to be instead ({@code hint}, may be empty). */
    static void atLeast(String property, long value, long min, String hint) {
        if (value < min) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be at least " + min + (hint.isEmpty() ? "" : " " + hint));
        }
    }

    /** A whole number of 0 or more, where 0 has a meaning of its own ({@code zeroMeans}, may be empty). */
    static void zeroOrMore(String property, long value, String zeroMeans) {
        if (value < 0) {
            throw new InvalidAdaptiveCachePropertyException(property, value,
                    "it must be 0" + (zeroMeans.isEmpty() ? "" : " (" + zeroMeans + ")") + " or more");
        }
    }

    /** A whole number from {@code min} to {@code max}, each named by {@code range} (such as "between 0 and max-total (8)"). */
    static void between(String property, long value, long min, long max, String range) {
        if (value < min || value > max) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be " + range);
        }
    }

    /** A percentage above 0 and at most 100. */
    static void percentage(String property, float value) {
        if (!(value > 0 && value <= 100)) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be a percentage above 0 and at most 100");
        }
    }

    /** A size from {@code min} to 2GB (what an int counts), with {@code min} as it is written, such as "1B". */
    static int size(String property, @Nullable DataSize value, DataSize min, String minText) {
        if (value == null || value.toBytes() < min.toBytes() || value.toBytes() > Integer.MAX_VALUE) {
            throw new InvalidAdaptiveCachePropertyException(property, value, "it must be between " + minText + " and 2GB");
        }
        return (int) value.toBytes();
    }

    /** One of an enumeration's values, which a missing value (bound from an empty string) is not. */
    static void present(String property, @Nullable Object value, String allowed) {
        if (value == null) {
            throw new InvalidAdaptiveCachePropertyException(property, null, "it must be " + allowed);
        }
    }
}
