package io.adaptivecache.spring.cache;

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
     * @return the value
     */
    Object deserialize(byte[] bytes);
}
