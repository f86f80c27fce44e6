package io.adaptivecache.benchmarks.pairs;

/**
 * What an interval says about a goal.
 */
public enum Verdict {

    /** The whole interval is on the goal's side of the threshold. */
    MET,

    /** The whole interval is on the wrong side of the threshold. */
    MISSED,

    /** The interval straddles the threshold: more pairs, or a smaller effect, would be needed. */
    UNDECIDED,

    /** A comparison without a threshold, reported for information. */
    NONE;

    /**
     * The verdict of an interval against a threshold.
     * @param interval the ratio's interval
     * @param threshold the goal, or {@code NaN} for none
     * @param higherIsBetter whether the goal is "at least" (throughput) rather than "at most" (CPU per call)
     * @return the verdict
     */
    public static Verdict of(Interval interval, double threshold, boolean higherIsBetter) {
        if (Double.isNaN(threshold) || interval.pairs() == 0) {
            return Double.isNaN(threshold) ? NONE : UNDECIDED;
        }
        double good = higherIsBetter ? interval.low() : -interval.high();
        double bad = higherIsBetter ? interval.high() : -interval.low();
        double line = higherIsBetter ? threshold : -threshold;
        if (good >= line) {
            return MET;
        }
        if (bad < line) {
            return MISSED;
        }
        return UNDECIDED;
    }

    /** @return the word a table shows */
    public String word() {
        return switch (this) {
            case MET -> "met";
            case MISSED -> "missed";
            case UNDECIDED -> "undecided";
            case NONE -> "–";
        };
    }
}
