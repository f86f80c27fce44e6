package io.adaptivecache.benchmarks.pairs;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class IntervalTests {

    @Test
    void theMedianOfAnOddAndAnEvenNumberOfValuesIsTheMiddleOrTheMeanOfTheTwoMiddleOnes() {
        assertThat(Interval.of(List.of(3.0, 1.0, 2.0)).median()).isEqualTo(2.0);
        assertThat(Interval.of(List.of(4.0, 1.0, 3.0, 2.0)).median()).isEqualTo(2.5);
    }

    @Test
    void identicalValuesGiveAnIntervalOfNoWidth() {
        Interval interval = Interval.of(List.of(1.1, 1.1, 1.1, 1.1, 1.1));
        assertThat(interval.low()).isEqualTo(1.1);
        assertThat(interval.high()).isEqualTo(1.1);
        assertThat(interval.pairs()).isEqualTo(5);
    }

    @Test
    void theIntervalCoversTheTrueMedianOfANoisySampleAndNarrowsWithMorePairs() {
        SplittableRandom random = new SplittableRandom(7);
        List<Double> few = new ArrayList<>();
        List<Double> many = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // Ratios around 1.2 with a spread like the host's drift.
            double ratio = 1.2 * Math.exp(random.nextGaussian() * 0.2);
            if (i < 10) {
                few.add(ratio);
            }
            many.add(ratio);
        }
        Interval small = Interval.of(few);
        Interval large = Interval.of(many);
        assertThat(large.contains(1.2)).as("%s", large.format()).isTrue();
        assertThat(large.low()).isLessThan(large.median());
        assertThat(large.high()).isGreaterThan(large.median());
        assertThat(large.high() - large.low()).isLessThan(small.high() - small.low());
        assertThat(large.median()).isCloseTo(1.2, within(0.05));
    }

    @Test
    void theSameValuesGiveTheSameIntervalSoThatAReportCanBeRecomputedFromItsCsv() {
        List<Double> values = List.of(0.9, 1.3, 1.1, 0.7, 1.6, 1.0, 1.2);
        assertThat(Interval.of(values)).isEqualTo(Interval.of(values));
    }

    @Test
    void withFewPairsTheIntervalIsAtLeastTheDistributionFreeOneWhichAForgivingBootstrapWouldUndercut() {
        // n = 20: P(Bin(20, 1/2) <= 5) = 2.07% <= 2.5% < P(<= 6) = 5.77%, so [x(6), x(15)].
        assertThat(Interval.orderStatisticRank(20)).isEqualTo(6);
        // n = 6: only the extremes are a 95% interval (P(X = 0) = 1.6%).
        assertThat(Interval.orderStatisticRank(6)).isEqualTo(1);
        assertThat(Interval.orderStatisticRank(5)).isEqualTo(1);
        Interval six = Interval.of(List.of(1.01, 1.02, 1.03, 1.04, 1.05, 0.97));
        assertThat(six.low()).isEqualTo(0.97);
        assertThat(six.high()).isEqualTo(1.05);
        assertThat(six.contains(1.0)).isTrue();
    }

    @Test
    void noValuesGiveNoInterval() {
        assertThat(Interval.of(List.of()).pairs()).isZero();
        assertThat(Interval.of(List.of()).format()).isEqualTo("–");
    }
}
