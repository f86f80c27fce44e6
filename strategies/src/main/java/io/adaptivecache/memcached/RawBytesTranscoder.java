package io.adaptivecache.memcached;

import net.spy.memcached.CachedData;
import net.spy.memcached.transcoders.Transcoder;

/**
 * Stores {@code byte[]} unchanged with flags 0, so other clients read the same bytes (the
 * default transcoder tags byte arrays and gzips anything over 16 KiB). Size limits on writes
 * are enforced earlier, by {@link io.adaptivecache.backend.CacheInputRules}; the limit here
 * applies to reads too (on the I/O thread), so it is kept at spymemcached's generous maximum.
 *
 * <p>Public so that the benchmarks' hand-written spymemcached client stores values exactly as
 * the template does, from this one definition rather than a copy. Not part of the starter's API:
 * applications go through a template. An enum, because it is stateless: one instance suffices.
 */
public enum RawBytesTranscoder implements Transcoder<byte[]> {

    /** The one instance. */
    INSTANCE;

    /**
     * The shared, stateless transcoder.
     *
     * @return the one instance
     */
    public static Transcoder<byte[]> instance() {
        return INSTANCE;
    }

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
