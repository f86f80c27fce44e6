package io.adaptivecache.spring.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.adaptivecache.CacheTemplate;
import org.jspecify.annotations.Nullable;
import org.springframework.cache.support.AbstractValueAdaptingCache;
import org.springframework.cache.support.NullValue;

/**
 * One Spring cache stored in a {@link CacheTemplate}. Keys are
 * {@code <prefix><cache name>:<generation>:<key>}; a key too long for memcached or holding
 * spaces or control characters is replaced by its SHA-256 digest, so any Spring key works on
 * any backend. {@link #clear()} moves the cache to a new generation (one counter increment)
 * rather than deleting entries one by one, which neither backend can do cheaply by prefix;
 * old entries expire by their TTL. Other instances see a new generation within a second.
 *
 * <p>A backend failure costs a miss on reads and a skipped write, through the
 * {@link CacheFailureHandler}, unless it is configured to rethrow.
 */
public class AdaptiveCache extends AbstractValueAdaptingCache {

    private static final byte[] NULL_MARKER = {0};
    private static final int MAX_PLAIN_KEY_BYTES = 200;
    private static final long GENERATION_REFRESH_NANOS = Duration.ofSeconds(1).toNanos();

    private final String name;
    private final CacheTemplate template;
    private final Duration ttl;
    private final String keyPrefix;
    private final CacheValueSerializer serializer;
    private final CacheFailureHandler failures;
    private final String generationKey;
    private volatile long generation = -1;
    private volatile long generationReadAt;

    /**
     * Creates a cache.
     * @param name the cache name
     * @param template where entries are stored
     * @param ttl entries' time to live, zero for none
     * @param keyPrefix prefix of every key
     * @param serializer turns values into bytes
     * @param allowNullValues whether null values are cached
     * @param failures what a backend failure means for the caller
     */
    public AdaptiveCache(String name, CacheTemplate template, Duration ttl, String keyPrefix, CacheValueSerializer serializer,
            boolean allowNullValues, CacheFailureHandler failures) {
        super(allowNullValues);
        this.name = name;
        this.template = template;
        this.ttl = ttl;
        this.keyPrefix = keyPrefix;
        this.serializer = serializer;
        this.failures = failures;
        this.generationKey = keyPrefix + name + ":generation";
    }

    @Override
    public String getName() {
        return this.name;
    }

    @Override
    public CacheTemplate getNativeCache() {
        return this.template;
    }

    /**
     * The time to live of this cache's entries.
     * @return the TTL, zero for none
     */
    public Duration getTtl() {
        return this.ttl;
    }

    /**
     * The prefix of every key this cache stores.
     * @return the prefix, empty for none
     */
    public String getKeyPrefix() {
        return this.keyPrefix;
    }

    @Override
    protected @Nullable Object lookup(Object key) {
        try {
            byte[] stored = this.template.get(storeKey(key));
            return stored == null ? null : decode(stored);
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "get", ex);
            return null;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> @Nullable T get(Object key, Callable<T> valueLoader) {
        ValueWrapper cached = get(key);
        if (cached != null) {
            return (T) cached.get();
        }
        T value;
        try {
            value = valueLoader.call();
        }
        catch (Exception ex) {
            throw new ValueRetrievalException(key, valueLoader, ex);
        }
        put(key, value);
        return value;
    }

    @Override
    public CompletableFuture<?> retrieve(Object key) {
        String storeKey;
        try {
            storeKey = storeKey(key);
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "get", ex);
            return CompletableFuture.completedFuture(null);
        }
        return this.template.getAsync(storeKey).handle((stored, failure) -> {
            if (failure != null) {
                this.failures.handle(this.name, "get", failure instanceof RuntimeException runtime ? runtime
                        : new IllegalStateException(failure));
                return null;
            }
            return stored == null ? null : toValueWrapper(decode(stored));
        });
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        return retrieve(key).thenCompose(wrapper -> {
            if (wrapper != null) {
                return CompletableFuture.completedFuture((T) ((ValueWrapper) wrapper).get());
            }
            return valueLoader.get().thenApply(value -> {
                put(key, value);
                return value;
            });
        });
    }

    @Override
    public void put(Object key, @Nullable Object value) {
        try {
            this.template.set(storeKey(key), encode(toStoreValue(value)), this.ttl);
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "put", ex);
        }
    }

    @Override
    public @Nullable ValueWrapper putIfAbsent(Object key, @Nullable Object value) {
        try {
            String storeKey = storeKey(key);
            if (this.template.add(storeKey, encode(toStoreValue(value)), this.ttl)) {
                return null;
            }
            byte[] existing = this.template.get(storeKey);
            return existing == null ? null : toValueWrapper(decode(existing));
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "putIfAbsent", ex);
            return null;
        }
    }

    @Override
    public void evict(Object key) {
        evictIfPresent(key);
    }

    @Override
    public boolean evictIfPresent(Object key) {
        try {
            return this.template.delete(storeKey(key));
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "evict", ex);
            return false;
        }
    }

    @Override
    public void clear() {
        try {
            this.generation = this.template.incr(this.generationKey, 1);
            this.generationReadAt = System.nanoTime();
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "clear", ex);
        }
    }

    @Override
    public boolean invalidate() {
        clear();
        return true;
    }

    /** The store value: {@link NullValue#INSTANCE} for a cached null, so that it reads as a hit. */
    private Object decode(byte[] stored) {
        return stored.length == 1 && stored[0] == 0 ? NullValue.INSTANCE : this.serializer.deserialize(stored);
    }

    private byte[] encode(Object storeValue) {
        return storeValue == NullValue.INSTANCE ? NULL_MARKER : this.serializer.serialize(storeValue);
    }

    String storeKey(Object key) {
        String scope = this.keyPrefix + this.name + ":" + currentGeneration() + ":";
        String plain = scope + key;
        return isPlainKeySafe(plain) ? plain : scope + "#" + sha256(plain);
    }

    private long currentGeneration() {
        long now = System.nanoTime();
        if (this.generation < 0 || now - this.generationReadAt > GENERATION_REFRESH_NANOS) {
            byte[] stored = this.template.get(this.generationKey);
            this.generation = stored == null ? 0 : Long.parseLong(new String(stored, StandardCharsets.US_ASCII).trim());
            this.generationReadAt = now;
        }
        return this.generation;
    }

    private static boolean isPlainKeySafe(String key) {
        if (key.length() > MAX_PLAIN_KEY_BYTES) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c <= 0x20 || c >= 0x7F) {
                return false;
            }
        }
        return true;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("Every Java runtime has SHA-256", ex);
        }
    }
}
