package io.adaptivecache.memcached;

import net.spy.memcached.CachedData;
import net.spy.memcached.transcoders.Transcoder;

/**
 * Stores {@code byte[]} unchanged with flags 0, so other clients read the same bytes (the
 * default transcoder tags byte arrays and gzips anything over 16 KiB). Size limits on writes
 * are enforced earlier, by {@link io.adaptivecache.backend.CacheInputRules}; the limit here
 * applies to reads too (on the I/O thread), so it is kept at spymemcached's generous maximum.
 */
final class RawBytesTranscoder implements Transcoder<byte[]> {

    static final RawBytesTranscoder INSTANCE = new RawBytesTranscoder();

    @Override
    public boolean asyncDecode(CachedData data) {
        return false;
    }

    @Override
    public CachedData encode(byte[] value) {
        return new CachedData(0, value, CachedData.MAX_SIZE);
    }

    @Override
    public byte[] decode(CachedData data) {
        return data.getData();
    }

    @Override
    public int getMaxSize() {
        return CachedData.MAX_SIZE;
    }
}
