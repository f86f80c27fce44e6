package io.adaptivecache.benchmarks.load;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MixTests {

    private static final int DRAWS = 200_000;

    @Test
    void theReadHeavyMixShouldAskForGetsNineteenTimesInTwentyAndTheStrategyMixFourInFive() {
        assertThat(readShare(Mix.READ_HEAVY_ZIPF)).isCloseTo(0.95, within(0.005));
        assertThat(readShare(Mix.MIXED_UNIFORM)).isCloseTo(0.80, within(0.005));
    }

    @Test
    void zipfKeysShouldMakeTheFirstKeyAboutATenthOfAllCallsAndTheFirstHundredAboutHalf() {
        // With exponent 0.99 over 10,000 keys the first key's weight is 1 / H = 0.098 and the first hundred's 0.52.
        int[] counts = counts(Mix.READ_HEAVY_ZIPF);
        int firstHundred = 0;
        for (int i = 0; i < 100; i++) {
            firstHundred += counts[i];
        }
        assertThat(counts[0] / (double) DRAWS).isCloseTo(1 / harmonic(), within(0.01));
        assertThat(firstHundred / (double) DRAWS).isBetween(0.45, 0.6);
        assertThat(counts[0]).as("popularity falls with rank").isGreaterThan(counts[1]).isGreaterThan(counts[9] * 5);
    }

    @Test
    void uniformKeysShouldGiveNoKeyMoreThanAFewTimesItsShare() {
        int[] counts = counts(Mix.MIXED_UNIFORM);
        double share = DRAWS / (double) ClosedLoopRunner.KEYS;
        for (int count : counts) {
            assertThat(count).isLessThan((int) (share * 3));
        }
    }

    @Test
    void aMixShouldBeFoundByItsSlugOrName() {
        assertThat(Mix.of("read-heavy-zipf")).isEqualTo(Mix.READ_HEAVY_ZIPF);
        assertThat(Mix.of("MIXED_UNIFORM")).isEqualTo(Mix.MIXED_UNIFORM);
    }

    private static double readShare(Mix mix) {
        SplittableRandom random = new SplittableRandom(7);
        int reads = 0;
        for (int i = 0; i < DRAWS; i++) {
            reads += mix.nextIsRead(random) ? 1 : 0;
        }
        return reads / (double) DRAWS;
    }

    private static int[] counts(Mix mix) {
        SplittableRandom random = new SplittableRandom(11);
        int[] counts = new int[ClosedLoopRunner.KEYS];
        for (int i = 0; i < DRAWS; i++) {
            counts[mix.nextKey(random)]++;
        }
        return counts;
    }

    private static double harmonic() {
        double sum = 0;
        for (int i = 1; i <= ClosedLoopRunner.KEYS; i++) {
            sum += 1 / Math.pow(i, Mix.ZIPF_EXPONENT);
        }
        return sum;
    }
}
