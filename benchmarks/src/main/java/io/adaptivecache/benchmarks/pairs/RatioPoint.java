package io.adaptivecache.benchmarks.pairs;

/**
 * One point of a ratio chart: a numerator's ratio at one caller count, with its interval.
 *
 * @param series the numerator's label (a target id)
 * @param threads the caller count
 * @param interval the ratio's median and 95% interval
 * @param verdict the goal's verdict at this point ({@link Verdict#NONE} without a goal)
 */
public record RatioPoint(String series, int threads, Interval interval, Verdict verdict) {
}
