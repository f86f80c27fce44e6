package io.adaptivecache.benchmarks.load;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * What the callers ask for: the share of gets among their calls and how they pick keys of the
 * {@value ClosedLoopRunner#KEYS}-key space.
 */
public enum Mix {

    /** 80% gets and 20% sets, every key as likely as any other: the strategy benchmarks' load. */
    MIXED_UNIFORM(80, false),

    /**
     * 95% gets and 5% sets, keys by a Zipf-like popularity (exponent 0.99, as in YCSB): the first
     * key is asked for about 10% of the time, the first 100 about half of it. Sets pick keys by the
     * same popularity, so the keys read most are also the ones invalidated most: the load a near
     * cache is for, and the harder kind of it.
     */
    READ_HEAVY_ZIPF(95, true);

    /** The Zipf exponent of {@link #READ_HEAVY_ZIPF}. */
    public static final double ZIPF_EXPONENT = 0.99;

    private static final double[] ZIPF_CUMULATIVE = zipfCumulative(ClosedLoopRunner.KEYS, ZIPF_EXPONENT);

    private final int readPercent;
    private final boolean zipf;

    Mix(int readPercent, boolean zipf) {
        this.readPercent = readPercent;
        this.zipf = zipf;
    }

    /** @return the share of gets, in percent */
    public int readPercent() {
        return this.readPercent;
    }

    /** @return for example {@code 95% gets, Zipf keys} */
    public String label() {
        return this.readPercent + "% gets, " + (this.zipf ? "Zipf" : "uniform") + " keys";
    }

    /** @return for file names and commands, for example {@code read-heavy-zipf}: the name, in lower case with dashes */
    public String slug() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Whether a call is a get.
     * @param random the caller's own generator
     * @return {@code true} for a get, {@code false} for a set
     */
    public boolean nextIsRead(SplittableRandom random) {
        return random.nextInt(100) < this.readPercent;
    }

    /**
     * The index of the next call's key.
     * @param random the caller's own generator
     * @return from 0 to {@value ClosedLoopRunner#KEYS} - 1
     */
    public int nextKey(SplittableRandom random) {
        if (!this.zipf) {
            return random.nextInt(ClosedLoopRunner.KEYS);
        }
        // Inverse transform over the precomputed distribution: a binary search of 14 steps, no allocation.
        int found = Arrays.binarySearch(ZIPF_CUMULATIVE, random.nextDouble());
        int index = found >= 0 ? found : -found - 1;
        return Math.min(index, ClosedLoopRunner.KEYS - 1);
    }

    /**
     * A mix by its slug or name.
     * @param text for example {@code read-heavy-zipf}
     * @return the mix
     * @throws IllegalArgumentException for an unknown one
     */
    public static Mix of(String text) {
        for (Mix mix : values()) {
            if (mix.slug().equals(text) || mix.name().equals(text.toUpperCase(Locale.ROOT).replace('-', '_'))) {
                return mix;
            }
        }
        throw new IllegalArgumentException("Unknown mix '" + text + "'; known: "
                + Arrays.stream(values()).map(Mix::slug).collect(Collectors.joining(", ")));
    }

    /** P(rank ≤ i) for ranks 0..n-1 with weight 1 / (rank + 1)^s. */
    static double[] zipfCumulative(int n, double exponent) {
        double[] cumulative = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1 / Math.pow(i + 1, exponent);
            cumulative[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cumulative[i] /= sum;
        }
        return cumulative;
    }
}
