package io.adaptivecache.benchmarks.http;

import java.util.HashMap;
import java.util.Map;

/**
 * What one {@code wrk} run measured, as its script's summary line gives it (latencies in
 * microseconds, from wrk's own histogram).
 *
 * @param requests responses received
 * @param durationMicros how long the run lasted
 * @param bytes bytes read
 * @param connectErrors failed connects
 * @param readErrors failed reads
 * @param writeErrors failed writes
 * @param statusErrors responses other than 2xx and 3xx
 * @param timeouts requests that took longer than wrk's timeout (left out of the latencies)
 * @param p50Micros median latency
 * @param p90Micros 90th percentile
 * @param p99Micros 99th percentile
 * @param p999Micros 99.9th percentile
 * @param meanMicros mean latency
 * @param maxMicros largest latency
 */
public record WrkResult(long requests, long durationMicros, long bytes, long connectErrors, long readErrors, long writeErrors,
        long statusErrors, long timeouts, long p50Micros, long p90Micros, long p99Micros, long p999Micros, double meanMicros,
        long maxMicros) {

    /** The summary line's first word (see {@code items.lua}). */
    static final String MARKER = "wrk-e2e";

    /** @return responses per second over the run */
    public double requestsPerSecond() {
        return this.durationMicros <= 0 ? 0 : this.requests * 1e6 / this.durationMicros;
    }

    /** @return every kind of error, timeouts included */
    public long errors() {
        return this.connectErrors + this.readErrors + this.writeErrors + this.statusErrors + this.timeouts;
    }

    /**
     * Reads wrk's output: the summary line of {@code items.lua} among wrk's own lines.
     * @param output everything wrk wrote on standard output
     * @return the figures
     * @throws IllegalArgumentException if the output holds no complete summary line
     */
    public static WrkResult parse(String output) {
        String line = output.lines().map(String::trim).filter(each -> each.startsWith(MARKER + " ")).reduce((first, last) -> last)
                .orElseThrow(() -> new IllegalArgumentException("wrk wrote no '" + MARKER + "' line (was the script items.lua?): "
                        + abbreviate(output)));
        Map<String, String> words = new HashMap<>();
        for (String word : line.substring(MARKER.length()).trim().split("\\s+")) {
            int equals = word.indexOf('=');
            if (equals > 0) {
                words.put(word.substring(0, equals), word.substring(equals + 1));
            }
        }
        try {
            return new WrkResult(number(words, "requests"), number(words, "duration_us"), number(words, "bytes"),
                    number(words, "connect"), number(words, "read"), number(words, "write"), number(words, "status"),
                    number(words, "timeout"), number(words, "p50_us"), number(words, "p90_us"), number(words, "p99_us"),
                    number(words, "p999_us"), Double.parseDouble(value(words, "mean_us")), number(words, "max_us"));
        }
        catch (NumberFormatException ex) {
            throw new IllegalArgumentException("Cannot read wrk's line '" + line + "': " + ex.getMessage(), ex);
        }
    }

    private static long number(Map<String, String> words, String name) {
        // wrk's Lua prints whole numbers; a latency histogram may still hand back a float for a percentile.
        return Math.round(Double.parseDouble(value(words, name)));
    }

    private static String value(Map<String, String> words, String name) {
        String value = words.get(name);
        if (value == null) {
            throw new IllegalArgumentException("wrk's summary line has no " + name + ": " + words);
        }
        return value;
    }

    private static String abbreviate(String text) {
        String flat = text.strip().replaceAll("\\s+", " ");
        return flat.isEmpty() ? "(nothing)" : flat.length() > 300 ? flat.substring(0, 300) + "..." : flat;
    }
}
