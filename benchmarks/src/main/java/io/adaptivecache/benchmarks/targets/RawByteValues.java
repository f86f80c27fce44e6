package io.adaptivecache.benchmarks.targets;

import net.rubyeye.xmemcached.transcoders.CompressionMode;

/**
 * Transcoders that store {@code byte[]} as is with flags 0, for the hand-written spymemcached
 * clients and for XMemcached. Every memcached target then reads what any other wrote (the
 * targets share the key space), and none pays for its library's default transcoder, which tags
 * byte arrays with its own flags and gzips values over 16 KiB; our template stores values the
 * same way.
 */
final class RawByteValues {

    private RawByteValues() {
    }

    /** For spymemcached. */
    static final net.spy.memcached.transcoders.Transcoder<byte[]> SPYMEMCACHED = new net.spy.memcached.transcoders.Transcoder<>() {

        @Override
        public boolean asyncDecode(net.spy.memcached.CachedData data) {
            return false;
        }

        @Override
        public net.spy.memcached.CachedData encode(byte[] value) {
            return new net.spy.memcached.CachedData(0, value, getMaxSize());
        }

        @Override
        public byte[] decode(net.spy.memcached.CachedData data) {
            return data.getData();
        }

        @Override
        public int getMaxSize() {
            return net.spy.memcached.CachedData.MAX_SIZE;
        }
    };

    /** For XMemcached. */
    static final net.rubyeye.xmemcached.transcoders.Transcoder<byte[]> XMEMCACHED = new net.rubyeye.xmemcached.transcoders.Transcoder<>() {

        @Override
        public net.rubyeye.xmemcached.transcoders.CachedData encode(byte[] value) {
            return new net.rubyeye.xmemcached.transcoders.CachedData(0, value);
        }

        @Override
        public byte[] decode(net.rubyeye.xmemcached.transcoders.CachedData data) {
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
    };
}
