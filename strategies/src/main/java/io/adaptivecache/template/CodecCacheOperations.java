package io.adaptivecache.template;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheOperations;
import io.adaptivecache.CacheTemplate;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.ValueCodec;
import org.jspecify.annotations.Nullable;

/**
 * A typed view of a template: encodes before the call, decodes after it. Every form, synchronous
 * or not, calls the same form of the template, so any {@link CacheTemplate} can have one.
 */
final class CodecCacheOperations<T> implements CacheOperations<T> {

    private final CacheTemplate template;
    private final ValueCodec<T> codec;

    CodecCacheOperations(CacheTemplate template, ValueCodec<T> codec) {
        this.template = Objects.requireNonNull(template, "template");
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    private byte[] encode(T value) {
        if (value == null) {
            throw new InvalidCacheInputException("A cache value must not be null; use delete to remove a key");
        }
        byte[] bytes = codec.encode(value);
        if (bytes == null) {
            throw new InvalidCacheInputException(codec + " encoded a value as null");
        }
        return bytes;
    }

    private @Nullable T decode(byte @Nullable [] bytes) {
        return bytes == null ? null : codec.decode(bytes);
    }

    @Override
    public CompletableFuture<@Nullable T> getAsync(String key) {
        return template.getAsync(key).thenApply(this::decode);
    }

    @Override
    public CompletableFuture<Map<String, T>> getAllAsync(Collection<String> keys) {
        return template.getAllAsync(keys).thenApply(raw -> {
            Map<String, T> decoded = new LinkedHashMap<>(raw.size() * 2);
            raw.forEach((key, bytes) -> decoded.put(key, codec.decode(bytes)));
            return decoded;
        });
    }

    @Override
    public CompletableFuture<Void> setAsync(String key, T value, Duration ttl) {
        return template.setAsync(key, encode(value), ttl);
    }

    @Override
    public CompletableFuture<Boolean> addAsync(String key, T value, Duration ttl) {
        return template.addAsync(key, encode(value), ttl);
    }

    @Override
    public CompletableFuture<Boolean> replaceAsync(String key, T value, Duration ttl) {
        return template.replaceAsync(key, encode(value), ttl);
    }

    @Override
    public CompletableFuture<Boolean> existsAsync(String key) {
        return template.existsAsync(key);
    }

    @Override
    public boolean exists(String key) {
        return template.exists(key);
    }

    @Override
    public CompletableFuture<Boolean> deleteAsync(String key) {
        return template.deleteAsync(key);
    }

    @Override
    public CompletableFuture<@Nullable CasValue<T>> getsAsync(String key) {
        return template.getsAsync(key).thenApply(raw -> raw == null ? null : raw.withValue(codec.decode(raw.value())));
    }

    @Override
    public CompletableFuture<CasResult> casAsync(String key, CasToken token, T value, Duration ttl) {
        return template.casAsync(key, token, encode(value), ttl);
    }

    @Override
    public CompletableFuture<Long> incrAsync(String key, long delta) {
        return template.incrAsync(key, delta);
    }

    @Override
    public CompletableFuture<Long> decrAsync(String key, long delta) {
        return template.decrAsync(key, delta);
    }

    @Override
    public CompletableFuture<Boolean> touchAsync(String key, Duration ttl) {
        return template.touchAsync(key, ttl);
    }

    // The synchronous forms call the template's synchronous forms, so that they too may be served by a blocking pool.

    @Override
    public @Nullable T get(String key) {
        return decode(template.get(key));
    }

    @Override
    public Map<String, T> getAll(Collection<String> keys) {
        Map<String, byte[]> raw = template.getAll(keys);
        Map<String, T> decoded = new LinkedHashMap<>(raw.size() * 2);
        raw.forEach((key, bytes) -> decoded.put(key, codec.decode(bytes)));
        return decoded;
    }

    @Override
    public void set(String key, T value, Duration ttl) {
        template.set(key, encode(value), ttl);
    }

    @Override
    public boolean add(String key, T value, Duration ttl) {
        return template.add(key, encode(value), ttl);
    }

    @Override
    public boolean replace(String key, T value, Duration ttl) {
        return template.replace(key, encode(value), ttl);
    }

    @Override
    public boolean delete(String key) {
        return template.delete(key);
    }

    @Override
    public @Nullable CasValue<T> gets(String key) {
        CasValue<byte[]> raw = template.gets(key);
        return raw == null ? null : raw.withValue(codec.decode(raw.value()));
    }

    @Override
    public CasResult cas(String key, CasToken token, T value, Duration ttl) {
        return template.cas(key, token, encode(value), ttl);
    }

    @Override
    public long incr(String key, long delta) {
        return template.incr(key, delta);
    }

    @Override
    public long decr(String key, long delta) {
        return template.decr(key, delta);
    }

    @Override
    public boolean touch(String key, Duration ttl) {
        return template.touch(key, ttl);
    }

    @Override
    public String toString() {
        return template.name() + " with " + codec;
    }
}
