package io.adaptivecache.benchmarks.pairs;

import java.util.List;
import java.util.Map;

/**
 * One small chart of a ratio chart: a few numerators against one denominator, per caller count.
 *
 * @param title what is compared, for example {@code ÷ best JedisPool (8 or 50)}
 * @param points the points, a handful of series
 * @param thresholds the goal's threshold per caller count (a caller count without one has no line)
 */
public record RatioPanel(String title, List<RatioPoint> points, Map<Integer, Double> thresholds) {
}
