package io.adaptivecache.spring.cache;

import org.jspecify.annotations.Nullable;

/**
 * Turns values cached through Spring's cache abstraction into bytes and back. Implementations
 * are thread-safe; they never see {@code null} (the cache stores null values itself).
 */
public interface CacheValueSerializer {

    /**
     * Serializes a value.
     * @param value the value, never {@code null}
     * @return its bytes; never a single zero byte, which marks a cached null
     */
    byte[] serialize(Object value);

    /**
     * Deserializes a value.
     * @param bytes bytes from {@link #serialize}
     * @return the value, or {@code null} when the bytes name a value this serializer refuses to
     *         build (such as a class that is not allowed): the cache reads that as a miss
     */
    @Nullable Object deserialize(byte[] bytes);
}
