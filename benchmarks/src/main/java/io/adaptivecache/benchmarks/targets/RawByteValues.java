package io.adaptivecache.benchmarks.targets;

import io.adaptivecache.memcached.XMemcachedRawBytesTranscoder;

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

    /** For XMemcached: the template's own transcoder, so both store values from one definition. */
    static final net.rubyeye.xmemcached.transcoders.Transcoder<byte[]> XMEMCACHED = XMemcachedRawBytesTranscoder.instance();
}
