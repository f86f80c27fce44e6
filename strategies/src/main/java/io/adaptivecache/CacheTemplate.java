package io.adaptivecache;

/**
 * The entry point to one cache backend (a Redis server or a memcached ring), storing raw
 * {@code byte[]} values. Use {@link #withCodec} for typed values. One template owns its
 * connections and the strategy that shares them among callers; the strategy can change at
 * runtime without failing a call.
 *
 * <pre>{@code
 * CacheTemplate cache = RedisCacheTemplates.builder().uri("redis://127.0.0.1:6379").start();
 * CacheOperations<String> strings = cache.withCodec(ValueCodec.utf8());
 * strings.set("greeting", "hello", Duration.ofMinutes(5));
 * }</pre>
 */
public interface CacheTemplate extends CacheOperations<byte[]>, AutoCloseable {

    /**
     * The name this template was given, used in logs and metrics.
     * @return the name
     */
    String name();

    /**
     * A view of this template that converts values with a codec. It shares this template's
     * connections; creating one is cheap.
     * @param codec the codec
     * @param <T> the value type
     * @return the typed view
     */
    <T> CacheOperations<T> withCodec(ValueCodec<T> codec);

    /**
     * Stops accepting calls, lets calls in flight finish (within the drain timeout) and closes
     * every connection.
     */
    @Override
    void close();
}
