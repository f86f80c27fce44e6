package io.adaptivecache.benchmarks.pairs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VerdictTests {

    @Test
    void anAtLeastGoalIsMetOnlyWhenTheWholeIntervalIsAtOrAboveTheThreshold() {
        assertThat(Verdict.of(new Interval(1.0, 0.96, 1.04, 20), 0.95, true)).isEqualTo(Verdict.MET);
        assertThat(Verdict.of(new Interval(1.0, 0.95, 1.04, 20), 0.95, true)).isEqualTo(Verdict.MET);
        assertThat(Verdict.of(new Interval(1.0, 0.94, 1.04, 20), 0.95, true)).isEqualTo(Verdict.UNDECIDED);
    }

    @Test
    void anAtLeastGoalIsMissedOnlyWhenTheWholeIntervalIsBelowTheThreshold() {
        assertThat(Verdict.of(new Interval(0.9, 0.85, 0.94, 20), 0.95, true)).isEqualTo(Verdict.MISSED);
        assertThat(Verdict.of(new Interval(0.9, 0.85, 0.95, 20), 0.95, true)).isEqualTo(Verdict.UNDECIDED);
    }

    @Test
    void anAtMostGoalLooksAtTheOtherEndOfTheInterval() {
        assertThat(Verdict.of(new Interval(1.0, 0.97, 1.04, 20), 1.05, false)).isEqualTo(Verdict.MET);
        assertThat(Verdict.of(new Interval(1.1, 1.06, 1.14, 20), 1.05, false)).isEqualTo(Verdict.MISSED);
        assertThat(Verdict.of(new Interval(1.05, 1.0, 1.1, 20), 1.05, false)).isEqualTo(Verdict.UNDECIDED);
    }

    @Test
    void aRowWithoutAThresholdHasNoVerdictAndOneWithoutPairsIsUndecided() {
        assertThat(Verdict.of(new Interval(1.0, 0.9, 1.1, 20), Double.NaN, true)).isEqualTo(Verdict.NONE);
        assertThat(Verdict.of(Interval.EMPTY, 0.95, true)).isEqualTo(Verdict.UNDECIDED);
    }
}
