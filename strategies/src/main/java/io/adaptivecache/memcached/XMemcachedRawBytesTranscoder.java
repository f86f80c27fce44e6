package io.adaptivecache.memcached;

import net.rubyeye.xmemcached.transcoders.CachedData;
import net.rubyeye.xmemcached.transcoders.CompressionMode;
import net.rubyeye.xmemcached.transcoders.Transcoder;

/**
 * {@link RawBytesTranscoder} for XMemcached: {@code byte[]} unchanged with flags 0, never
 * compressed, so both drivers (and other clients) read the same bytes.
 *
 * <p>Public so that the benchmarks' hand-written XMemcached client stores values exactly as the
 * template does, from this one definition rather than a copy. Not part of the starter's API:
 * applications go through a template. An enum, because it is stateless (its setters are no-ops):
 * one instance suffices.
 */
public enum XMemcachedRawBytesTranscoder implements Transcoder<byte[]> {

    /** The one instance. */
    INSTANCE;

    /**
     * The shared, stateless transcoder (its setters are no-ops, so sharing it is safe).
     *
     * @return the one instance
     */
    public static Transcoder<byte[]> instance() {
        return INSTANCE;
    }

    @Override
    public CachedData encode(byte[] value) {
        return new CachedData(0, value);
    }

    @Override
    public byte[] decode(CachedData data) {
        return data.getData();
    }

    @Override
    public void setPrimitiveAsString(boolean primitiveAsString) {
    }

    @Override
    public void setPackZeros(boolean packZeros) {
    }

    @Override
    public void setCompressionThreshold(int threshold) {
    }

    @Override
    public boolean isPrimitiveAsString() {
        return false;
    }

    @Override
    public boolean isPackZeros() {
        return false;
    }

    @Override
    public void setCompressionMode(CompressionMode mode) {
    }
}
