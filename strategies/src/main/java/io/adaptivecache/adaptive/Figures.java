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

    /**
     * Whether the network changed between two strategies' windows: the shortest call moved (see
     * {@link #similarRoundTrip}) and the mean call moved the same way by at least half as much. A
     * longer or shorter path delays or speeds every call; a strategy that pipelines more calls on
     * fewer connections raises the shortest call alone, since under load every call on its one
     * connection waits behind others (measured on loopback at 200 callers: one connection's
     * shortest call about 1 ms, two connections' about 30 µs, at much the same mean).
     */
    static boolean networkChanged(double roundTripBefore, double meanBefore, double roundTripAfter, double meanAfter) {
        if (similarRoundTrip(roundTripBefore, roundTripAfter)) {
            return false;
        }
        double moved = roundTripAfter - roundTripBefore;
        double meanMoved = meanAfter - meanBefore;
        return Math.signum(meanMoved) == Math.signum(moved) && Math.abs(meanMoved) >= Math.abs(moved) / 2;
    }
}
