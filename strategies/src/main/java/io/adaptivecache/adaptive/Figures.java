package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/** Figures for evidence, and the median the trials compare: shared by the policy's layers. */
final class Figures {

    private Figures() {
    }

    /** The median: one window far off (a GC pause, a neighbour's burst) moves it by at most one rank. */
    static double median(double[] values) {
        if (values.length == 0) {
            return 0;
        }
        Arrays.sort(values);
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    /** A size for evidence. */
    static String bytes(double bytes) {
        if (bytes < 1024) {
            return String.format(Locale.ROOT, "%.0f B", bytes);
        }
        return bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024)
                : String.format(Locale.ROOT, "%.2f MiB", bytes / (1024 * 1024));
    }

    /** A latency for evidence: microseconds below a millisecond, milliseconds from there. */
    static String latency(double nanos) {
        return nanos < 1e6 ? String.format(Locale.ROOT, "%.0f \u00b5s", nanos / 1e3) : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    static long seconds(long nanos) {
        return Duration.ofNanos(nanos).toSeconds();
    }

    /** Whether two figures are within a factor of each other. */
    static boolean within(double a, double b, double factor) {
        return a <= b * factor && b <= a * factor;
    }

    /** Round trips under 250 µs are all "short" (loopback jitters between 30 and 120 µs); above, within 3x. */
    static boolean similarRoundTrip(double a, double b) {
        return Math.max(a, b) < 250_000 || within(a, b, 3);
    }
}
