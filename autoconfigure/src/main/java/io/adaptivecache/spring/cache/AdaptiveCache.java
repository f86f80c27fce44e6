package io.adaptivecache.spring.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
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
 *
 * <p>{@link #get(Object, Callable)} ({@code @Cacheable(sync = true)}) and
 * {@link #retrieve(Object, Supplier)} call their loader once per key at a time in this JVM: the
 * callers of a key that arrive while it loads wait for its value (or its failure) rather than
 * loading too. Across instances each loads once. The futures of {@link #retrieve(Object)} and
 * {@link #retrieve(Object, Supplier)} complete off the drivers' I/O threads (see the template's
 * completion executor), so that what Spring runs on them (the method, then a put) blocks none.
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
    // Loads under way, by store key: an entry lives only while its load runs, so the map holds at most one per caller.
    private final ConcurrentHashMap<Object, Load> loads = new ConcurrentHashMap<>();

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

    /**
     * The cached value, or the loader's: the loader runs once per key at a time in this JVM. The
     * first caller of a key looks it up, calls the loader on a miss and stores its value; callers
     * of the same key that arrive meanwhile wait for that caller's answer (its value, or its
     * loader's failure as a {@link ValueRetrievalException}) instead of reading or loading
     * themselves, as Spring's {@code @Cacheable(sync = true)} expects. A backend failure costs a
     * miss and a skipped write, unless the failure handler rethrows.
     * @param key the Spring key
     * @param valueLoader computes the value on a miss
     * @return the cached or loaded value
     * @throws ValueRetrievalException if the loader threw (every caller waiting for it gets one)
     * @throws IllegalStateException if the loader asks this cache for its own key (it would wait for itself)
     */
    @Override
    @SuppressWarnings("unchecked")
    public <T> @Nullable T get(Object key, Callable<T> valueLoader) {
        String storeKey = storeKeyOrNull(key);
        Object loadKey = storeKey != null ? storeKey : new UnstoredKey(key);
        Load load = this.loads.get(loadKey);
        if (load == null) {
            Load mine = new Load(Thread.currentThread());
            load = this.loads.putIfAbsent(loadKey, mine);
            if (load == null) {
                return (T) lead(key, storeKey, loadKey, mine, valueLoader);
            }
        }
        return (T) await(load, key, valueLoader);
    }

    private @Nullable Object lead(Object key, @Nullable String storeKey, Object loadKey, Load load, Callable<?> valueLoader) {
        Object value;
        try {
            ValueWrapper cached = storeKey == null ? null : lookupStored(storeKey);
            if (cached != null) {
                value = cached.get();
            }
            else {
                try {
                    value = valueLoader.call();
                }
                catch (Exception ex) {
                    throw new LoaderFailure(ex);
                }
                if (storeKey != null) {
                    putStored(storeKey, value);
                }
            }
        }
        catch (LoaderFailure ex) {
            land(loadKey, load, null, ex);
            throw new ValueRetrievalException(key, valueLoader, ex.getCause());
        }
        catch (RuntimeException | Error ex) {
            land(loadKey, load, null, ex);
            throw ex;
        }
        land(loadKey, load, value, null);
        return value;
    }

    private @Nullable Object await(Load load, Object key, Callable<?> valueLoader) {
        if (load.leader == Thread.currentThread()) {
            throw new IllegalStateException("The loader of key '" + key + "' in cache '" + this.name
                    + "' asked the cache for the same key: it would wait for itself");
        }
        try {
            return load.join();
        }
        catch (CompletionException ex) {
            Throwable cause = ex.getCause();
            if (cause instanceof LoaderFailure failure) {
                throw new ValueRetrievalException(key, valueLoader, failure.getCause());
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new ValueRetrievalException(key, valueLoader, cause);
        }
    }

    /** Ends a load: later callers start their own (removed first, so that one released by a failure loads again), then the waiters go. */
    private void land(Object loadKey, Load load, @Nullable Object value, @Nullable Throwable failure) {
        this.loads.remove(loadKey, load);
        if (failure == null) {
            load.complete(value);
        }
        else {
            load.completeExceptionally(failure);
        }
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
        return retrieveStored(storeKey);
    }

    private CompletableFuture<@Nullable ValueWrapper> retrieveStored(String storeKey) {
        return this.template.getAsync(storeKey).handle((stored, failure) -> {
            if (failure != null) {
                this.failures.handle(this.name, "get", asRuntime(failure));
                return null;
            }
            return stored == null ? null : toValueWrapper(decode(stored));
        });
    }

    /**
     * The cached value, or the loader's, without blocking: as {@link #get(Object, Callable)}, the
     * loader runs once per key at a time in this JVM and the callers of the key that arrive
     * meanwhile share its future; the value is stored with an asynchronous write, and the
     * returned future completes once it is stored (or the write failed, which costs nothing
     * unless the failure handler rethrows). The futures complete on the template's completion
     * executor or the loader's thread, never on a driver's I/O thread.
     * @param key the Spring key
     * @param valueLoader starts computing the value on a miss
     * @return the cached or loaded value; failed with the loader's failure if it failed
     */
    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        String storeKey = storeKeyOrNull(key);
        Object loadKey = storeKey != null ? storeKey : new UnstoredKey(key);
        Load load = this.loads.get(loadKey);
        if (load == null) {
            Load mine = new Load(null);
            load = this.loads.putIfAbsent(loadKey, mine);
            if (load == null) {
                leadAsync(storeKey, loadKey, mine, valueLoader);
                load = mine;
            }
        }
        // Each caller gets its own future, so that one that cancels or completes it touches no other.
        return (CompletableFuture<T>) load.handle(AdaptiveCache::loaded);
    }

    private <T> void leadAsync(@Nullable String storeKey, Object loadKey, Load load, Supplier<CompletableFuture<T>> valueLoader) {
        CompletableFuture<@Nullable ValueWrapper> found;
        try {
            found = storeKey == null ? CompletableFuture.completedFuture(null) : retrieveStored(storeKey);
        }
        catch (RuntimeException | Error ex) {
            // Refused before it was sent: the callers that joined must not wait for a load that never started.
            land(loadKey, load, null, ex);
            return;
        }
        found.thenCompose(cached -> cached != null ? CompletableFuture.completedFuture(cached.get()) : loadAsync(storeKey, valueLoader))
                .whenComplete((value, failure) -> land(loadKey, load, value, failure));
    }

    private <T> CompletableFuture<@Nullable Object> loadAsync(@Nullable String storeKey, Supplier<CompletableFuture<T>> valueLoader) {
        CompletableFuture<T> loading;
        try {
            loading = valueLoader.get();
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(new LoaderFailure(ex));
        }
        if (loading == null) {
            return CompletableFuture.failedFuture(new LoaderFailure(new IllegalStateException("The loader returned no future")));
        }
        return loading.handle((value, failure) -> failure != null
                ? CompletableFuture.<@Nullable Object>failedFuture(new LoaderFailure(unwrap(failure)))
                : putAsync(storeKey, value).thenApply(stored -> (@Nullable Object) value)).thenCompose(Function.identity());
    }

    /** What a caller of {@link #retrieve(Object, Supplier)} sees of a load: its value, or the loader's own failure. */
    private static @Nullable Object loaded(@Nullable Object value, @Nullable Throwable failure) {
        if (failure == null) {
            return value;
        }
        Throwable cause = unwrap(failure);
        throw new CompletionException(cause instanceof LoaderFailure loader ? loader.getCause() : cause);
    }

    @Override
    public void put(Object key, @Nullable Object value) {
        try {
            putStored(storeKey(key), value);
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "put", ex);
        }
    }

    private @Nullable ValueWrapper lookupStored(String storeKey) {
        try {
            byte[] stored = this.template.get(storeKey);
            return stored == null ? null : toValueWrapper(decode(stored));
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "get", ex);
            return null;
        }
    }

    private void putStored(String storeKey, @Nullable Object value) {
        try {
            this.template.set(storeKey, encode(toStoreValue(value)), this.ttl);
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "put", ex);
        }
    }

    /** A put that blocks no thread; complete when the write is done or failed (a failure costs nothing unless rethrown). */
    private CompletableFuture<@Nullable Void> putAsync(@Nullable String storeKey, @Nullable Object value) {
        if (storeKey == null) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            return this.template.setAsync(storeKey, encode(toStoreValue(value)), this.ttl).handle((done, failure) -> {
                if (failure != null) {
                    this.failures.handle(this.name, "put", asRuntime(failure));
                }
                return null;
            });
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "put", ex);
            return CompletableFuture.completedFuture(null);
        }
    }

    /** The store key, or {@code null} (a failure handled as a miss) when it cannot be had: the generation could not be read. */
    private @Nullable String storeKeyOrNull(Object key) {
        try {
            return storeKey(key);
        }
        catch (RuntimeException ex) {
            this.failures.handle(this.name, "get", ex);
            return null;
        }
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static RuntimeException asRuntime(Throwable failure) {
        Throwable cause = unwrap(failure);
        return cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
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

    /**
     * The store value: {@link NullValue#INSTANCE} for a cached null, so that it reads as a hit;
     * {@code null} (a miss) for a value the serializer refuses to build.
     */
    private @Nullable Object decode(byte[] stored) {
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

    /**
     * A load of one key under way: the callers of the key that arrive meanwhile wait for it. Its
     * value is the loaded (or found) value; its failure a {@link LoaderFailure} for the loader's
     * own, anything else for the cache's (a failure the handler rethrows).
     */
    private static final class Load extends CompletableFuture<@Nullable Object> {

        /** The caller that loads synchronously, {@code null} for an asynchronous load. */
        final @Nullable Thread leader;

        Load(@Nullable Thread leader) {
            this.leader = leader;
        }
    }

    /** The loader's failure, told apart from the cache's while it travels to the waiting callers. */
    private static final class LoaderFailure extends RuntimeException {

        LoaderFailure(Throwable cause) {
            super(cause.toString(), cause, false, false);
        }
    }

    /** The key of a load whose store key could not be had (the server is not answering): loaded, not stored. */
    private record UnstoredKey(Object key) {
    }
}
