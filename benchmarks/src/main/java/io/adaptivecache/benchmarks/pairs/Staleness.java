package io.adaptivecache.benchmarks.pairs;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * How stale a local tier's reads were during one slice: the staleness of every write its probe
 * made ({@link io.adaptivecache.benchmarks.load.StalenessProbe}), in microseconds, kept whole (as
 * a compressed HdrHistogram) so that a run's figures pool the slices it keeps.
 *
 * @param encoded the histogram, compressed and in Base64; {@code -} for a target without a local tier
 */
public record Staleness(String encoded) {

    /** A slice of a target without a local tier. */
    public static final Staleness NONE = new Staleness("-");

    /**
     * Keeps a histogram.
     * @param histogram per write, microseconds
     * @return the staleness
     */
    public static Staleness of(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return new Staleness(Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length)));
    }

    /** @return whether the slice measured staleness at all */
    public boolean measured() {
        return !"-".equals(this.encoded);
    }

    /** @return the histogram, empty for {@link #NONE} */
    public Histogram histogram() {
        if (!measured()) {
            return new Histogram(3);
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(this.encoded)), 0);
        }
        catch (DataFormatException ex) {
            throw new IllegalArgumentException("Not a staleness histogram: " + this.encoded, ex);
        }
    }

    /** @return every write's staleness in microseconds, ascending (as the histogram keeps them: to 3 significant digits) */
    long[] values() {
        Histogram histogram = histogram();
        long[] values = new long[(int) histogram.getTotalCount()];
        int i = 0;
        for (HistogramIterationValue value : histogram.recordedValues()) {
            for (long n = 0; n < value.getCountAddedInThisIterationStep(); n++) {
                values[i++] = value.getValueIteratedTo();
            }
        }
        return values;
    }
}
