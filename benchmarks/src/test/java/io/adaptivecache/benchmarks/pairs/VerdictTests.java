package io.adaptivecache.benchmarks.pairs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class VerdictTests {

    /** One row a case: where a 20-pair interval lies against the threshold, and the verdict that follows. */
    @ParameterizedTest(name = "{0}: [{2}, {3}] against {4}")
    @CsvSource(delimiter = '|', textBlock = """
            an at-least goal is met when the whole interval is above the threshold   | 1.0  | 0.96 | 1.04 | 0.95 | true  | MET
            an at-least goal is met when the interval starts at the threshold        | 1.0  | 0.95 | 1.04 | 0.95 | true  | MET
            an at-least goal is undecided when the interval starts below it          | 1.0  | 0.94 | 1.04 | 0.95 | true  | UNDECIDED
            an at-least goal is missed when the whole interval is below it           | 0.9  | 0.85 | 0.94 | 0.95 | true  | MISSED
            an at-least goal is undecided when the interval reaches the threshold    | 0.9  | 0.85 | 0.95 | 0.95 | true  | UNDECIDED
            an at-most goal looks at the other end: below it is met                  | 1.0  | 0.97 | 1.04 | 1.05 | false | MET
            an at-most goal looks at the other end: above it is missed               | 1.1  | 1.06 | 1.14 | 1.05 | false | MISSED
            an at-most goal looks at the other end: across it is undecided           | 1.05 | 1.0  | 1.1  | 1.05 | false | UNDECIDED
            a row without a threshold has no verdict                                 | 1.0  | 0.9  | 1.1  | NaN  | true  | NONE
            """)
    void theVerdictShouldFollowWhereTheIntervalLiesAgainstTheThreshold(String reason, double median, double low, double high,
            double threshold, boolean atLeast, Verdict expected) {
        assertThat(Verdict.of(new Interval(median, low, high, 20), threshold, atLeast)).as(reason).isEqualTo(expected);
    }

    @Test
    void aRowWithoutPairsIsUndecided() {
        assertThat(Verdict.of(Interval.EMPTY, 0.95, true)).isEqualTo(Verdict.UNDECIDED);
    }
}
