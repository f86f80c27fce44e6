package io.adaptivecache.memcached;

import net.rubyeye.xmemcached.transcoders.CachedData;
import net.rubyeye.xmemcached.transcoders.CompressionMode;
import net.rubyeye.xmemcached.transcoders.Transcoder;

/**
 * {@link RawBytesTranscoder} for XMemcached: {@code byte[]} unchanged with flags 0, never
 * compressed, so both drivers (and other clients) read the same bytes.
 */
final class XMemcachedRawBytesTranscoder implements Transcoder<byte[]> {

    static final XMemcachedRawBytesTranscoder INSTANCE = new XMemcachedRawBytesTranscoder();

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
