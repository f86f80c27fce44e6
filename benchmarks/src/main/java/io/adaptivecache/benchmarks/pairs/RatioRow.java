package io.adaptivecache.benchmarks.pairs;

/**
 * One comparison's ratio at one caller or connection count, as the pair harness and the
 * end-to-end harness both report it: what decides whether it needs more cycles, whether an A/A
 * control holds, and the status a table shows, in one place for both.
 */
public interface RatioRow {

    /** @return whether the comparison is an A/A control (a target against its twin) */
    boolean control();

    /** @return the ratio's median and 95% interval over the kept cycles */
    Interval interval();

    /** @return cycles in which every side of the comparison was measured */
    int cycles();

    /** @return the verdict ({@link Verdict#NONE} for controls and rows without a goal) */
    Verdict verdict();

    /** @return whether the row still needs cycles: a goal whose interval straddles its threshold */
    default boolean undecided() {
        return verdict() == Verdict.UNDECIDED;
    }

    /** @return for an A/A control, whether its interval contains 1.0 (the instrument shows no difference that is not there) */
    default boolean controlHolds() {
        return interval().pairs() > 1 && interval().contains(1.0);
    }

    /** @return the verdict as the table shows it; for a control, whether it holds */
    default String status() {
        if (control()) {
            if (interval().pairs() < 2) {
                return "too few pairs";
            }
            return controlHolds() ? "holds" : "FAILS: interval excludes 1.0";
        }
        return verdict().word();
    }
}
