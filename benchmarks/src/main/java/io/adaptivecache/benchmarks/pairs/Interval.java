package io.adaptivecache.benchmarks.pairs;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A median with its 95% confidence interval: the percentile bootstrap over pairs, widened where
 * needed to the distribution-free interval of order statistics (the binomial interval for a
 * median, exact for any continuous distribution). With 20 or more pairs the two nearly agree;
 * with few pairs a bootstrap median can only take a handful of values and its interval comes out
 * too narrow, which an A/A control exposes, so the wider of the two is reported.
 *
 * @param median the median of the values
 * @param low the interval's lower end (2.5th percentile of the bootstrap medians)
 * @param high its upper end (97.5th percentile)
 * @param pairs how many values (kept pairs or cycles) it rests on
 */
public record Interval(double median, double low, double high, int pairs) {

    /** Resamples per interval: enough for stable 2.5/97.5 percentiles of a median. */
    static final int RESAMPLES = 4000;

    /** No values. */
    public static final Interval EMPTY = new Interval(Double.NaN, Double.NaN, Double.NaN, 0);

    /**
     * The median of the values and its percentile-bootstrap 95% interval (resampling the values with
     * replacement). Seeded, so that a report is reproducible from its CSV.
     * @param values per-pair ratios, or per-slice figures
     * @return the interval, or {@link #EMPTY} for no values
     */
    public static Interval of(List<Double> values) {
        if (values.isEmpty()) {
            return EMPTY;
        }
        double[] data = values.stream().mapToDouble(Double::doubleValue).toArray();
        double median = median(data.clone());
        if (data.length == 1) {
            return new Interval(median, median, median, 1);
        }
        SplittableRandom random = new SplittableRandom(0x5eedL * 31 + data.length);
        double[] medians = new double[RESAMPLES];
        double[] sample = new double[data.length];
        for (int r = 0; r < RESAMPLES; r++) {
            for (int i = 0; i < sample.length; i++) {
                sample[i] = data[random.nextInt(data.length)];
            }
            medians[r] = median(sample);
        }
        Arrays.sort(medians);
        double[] sorted = data.clone();
        Arrays.sort(sorted);
        int rank = orderStatisticRank(sorted.length);
        double low = Math.min(medians[(int) Math.floor(0.025 * (RESAMPLES - 1))], sorted[rank - 1]);
        double high = Math.max(medians[(int) Math.ceil(0.975 * (RESAMPLES - 1))], sorted[sorted.length - rank]);
        return new Interval(median, low, high, data.length);
    }

    /**
     * The rank k (from 1) of the lower end of the distribution-free 95% interval of a median:
     * the largest k with P(Binomial(n, 1/2) ≤ k - 1) ≤ 2.5%; the interval is [x(k), x(n - k + 1)].
     * Below 6 values no such k exists and the whole range (k = 1) is the best there is.
     */
    static int orderStatisticRank(int n) {
        double cumulative = 0;
        double term = Math.pow(0.5, n); // P(X = 0)
        int rank = 1;
        for (int k = 0; k < n / 2; k++) {
            cumulative += term;
            if (cumulative > 0.025) {
                break;
            }
            rank = k + 1;
            term = term * (n - k) / (k + 1);
        }
        return rank;
    }

    /** Sorts its argument. */
    static double median(double[] values) {
        Arrays.sort(values);
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    /**
     * Whether a value lies inside the interval.
     * @param value the value
     * @return whether low ≤ value ≤ high
     */
    public boolean contains(double value) {
        return this.low <= value && value <= this.high;
    }

    /** @return for example {@code 1.03x [0.98, 1.07]} */
    public String format() {
        if (this.pairs == 0) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.2fx [%.2f, %.2f]", this.median, this.low, this.high);
    }
}
