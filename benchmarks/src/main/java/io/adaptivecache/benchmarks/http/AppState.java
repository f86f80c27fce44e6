package io.adaptivecache.benchmarks.http;

import java.util.HashMap;
import java.util.Map;

/**
 * What an items application says between slices ({@code GET /bench/state}).
 *
 * @param compileMillis the JIT's total compilation time so far
 * @param loads items made because the cache did not hold them, since the start
 * @param strategy the adaptive template's strategy, {@code -} for Boot's variants
 * @param switches the adaptive template's switches since the start
 * @param transport Lettuce's transport in that JVM
 */
record AppState(long compileMillis, long loads, String strategy, int switches, String transport) {

    /**
     * Reads the endpoint's line.
     * @param line such as {@code compile_ms=812 loads=10000 strategy=MULTI(2) switches=0 transport=io_uring}
     * @return the state
     * @throws IllegalArgumentException if a word is missing or not a number where one is due
     */
    static AppState parse(String line) {
        Map<String, String> words = new HashMap<>();
        for (String word : line.trim().split("\\s+")) {
            int equals = word.indexOf('=');
            if (equals > 0) {
                words.put(word.substring(0, equals), word.substring(equals + 1));
            }
        }
        for (String name : new String[] { "compile_ms", "loads", "strategy", "switches", "transport" }) {
            if (!words.containsKey(name)) {
                throw new IllegalArgumentException("The application's state has no " + name + ": '" + line + "'");
            }
        }
        return new AppState(Long.parseLong(words.get("compile_ms")), Long.parseLong(words.get("loads")), words.get("strategy"),
                Integer.parseInt(words.get("switches")), words.get("transport"));
    }
}
