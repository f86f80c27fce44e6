package io.adaptivecache.benchmarks.targets;

import io.adaptivecache.memcached.RawBytesTranscoder;
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

    /** For spymemcached: the template's own transcoder, so both store values from one definition. */
    static final net.spy.memcached.transcoders.Transcoder<byte[]> SPYMEMCACHED = RawBytesTranscoder.instance();

    /** For XMemcached: the template's own transcoder, so both store values from one definition. */
    static final net.rubyeye.xmemcached.transcoders.Transcoder<byte[]> XMEMCACHED = XMemcachedRawBytesTranscoder.instance();
}
