package io.adaptivecache;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * The cache commands, each in a synchronous form and an asynchronous form returning a
 * {@link CompletableFuture}. Implementations are thread-safe.
 *
 * <p><b>Input.</b> Keys, values and TTLs are checked before anything is written to a socket;
 * a bad one throws {@link InvalidCacheInputException} at once, from the asynchronous forms too,
 * and leaves the connection usable. A TTL of {@link Duration#ZERO} means "never expires"; a
 * negative TTL is rejected. Redis keeps TTLs to the millisecond; memcached rounds them up to whole
 * seconds and its clock ticks once a second, so there an entry with a TTL of n seconds lives
 * between n - 1 and n seconds.
 *
 * <p><b>Failures.</b> The synchronous forms throw a {@link CacheException} subclass; the
 * asynchronous forms complete exceptionally with one (wrapped in a
 * {@link java.util.concurrent.CompletionException} where {@code CompletableFuture} does so).
 *
 * @param <V> the value type
 */
public interface CacheOperations<V> {

    /**
     * Reads a value.
     * @param key the key
     * @return the value, or {@code null} if the key is absent
     */
    @Nullable V get(String key);

    /**
     * Reads a value asynchronously.
     * @param key the key
     * @return the value, or {@code null} if the key is absent
     */
    CompletableFuture<@Nullable V> getAsync(String key);

    /**
     * Reads several values in one request per server.
     *
     * <p>A key that is absent (never set, expired, evicted or deleted) is left out of the map:
     * there is no entry with a {@code null} value, so {@code result.containsKey(key)} tells a hit
     * from a miss, and no key at all (or none present) gives an empty map. A key given more than
     * once is refused with an {@link InvalidCacheInputException} naming it, before anything is
     * sent: it usually means a bug in the caller, and the map could hold it only once.
     * @param keys the keys, each at most once
     * @return the keys that are present, with their values, in the order of {@code keys}; absent keys are left out
     * @throws InvalidCacheInputException if a key appears more than once, or a key is invalid (null, empty, too long)
     */
    Map<String, V> getAll(Collection<String> keys);

    /**
     * Reads several values asynchronously, in one request per server. Answers as
     * {@link #getAll(Collection)}: absent keys are left out of the map, and a key given more
     * than once is refused before anything is sent.
     * @param keys the keys, each at most once
     * @return the keys that are present, with their values, in the order of {@code keys}; absent keys are left out
     * @throws InvalidCacheInputException if a key appears more than once, or a key is invalid (thrown at once, not
     *         through the future)
     */
    CompletableFuture<Map<String, V>> getAllAsync(Collection<String> keys);

    /**
     * Stores a value, whether or not the key exists.
     * @param key the key
     * @param value the value
     * @param ttl time to live, {@link Duration#ZERO} for none
     */
    void set(String key, V value, Duration ttl);

    /**
     * Stores a value asynchronously, whether or not the key exists.
     * @param key the key
     * @param value the value
     * @param ttl time to live, {@link Duration#ZERO} for none
     * @return completes when the server has stored the value
     */
    CompletableFuture<Void> setAsync(String key, V value, Duration ttl);

    /**
     * Stores a value only if the key is absent.
     * @param key the key
     * @param value the value
     * @param ttl time to live, {@link Duration#ZERO} for none
     * @return whether the value was stored
     */
    boolean add(String key, V value, Duration ttl);

    /**
     * Stores a value asynchronously, only if the key is absent.
     * @param key the key
     * @param value the value
     * @param ttl time to live, {@link Duration#ZERO} for none
     * @return whether the value was stored
     */
    CompletableFuture<Boolean> addAsync(String key, V value, Duration ttl);

    /**
     * Stores a value only if the key is present.
     * @param key the key
     * @param value the value
     * @param ttl time to live, {@link Duration#ZERO} for none
     * @return whether the value was stored
     */
    boolean replace(String key, V value, Duration ttl);

    /**
     * Stores a value asynchronously, only if the key is present.
     * @param key the key
     * @param value the value
     * @param ttl time to live, {@link Duration#ZERO} for none
     * @return whether the value was stored
     */
    CompletableFuture<Boolean> replaceAsync(String key, V value, Duration ttl);

    /**
     * Whether a key is present (on memcached, which has no presence-only command, by reading its
     * value).
     * @param key the key
     * @return whether the key is present
     */
    boolean exists(String key);

    /**
     * Whether a key is present, without blocking.
     * @param key the key
     * @return whether the key is present
     */
    CompletableFuture<Boolean> existsAsync(String key);

    /**
     * Removes a key.
     * @param key the key
     * @return whether the key existed
     */
    boolean delete(String key);

    /**
     * Removes a key asynchronously.
     * @param key the key
     * @return whether the key existed
     */
    CompletableFuture<Boolean> deleteAsync(String key);

    /**
     * Reads a value with a token for a later {@link #cas}.
     * @param key the key
     * @return the value and its token, or {@code null} if the key is absent
     */
    @Nullable CasValue<V> gets(String key);

    /**
     * Reads a value with a token for a later {@link #cas}, asynchronously.
     * @param key the key
     * @return the value and its token, or {@code null} if the key is absent
     */
    CompletableFuture<@Nullable CasValue<V>> getsAsync(String key);

    /**
     * Replaces a value only if it has not changed since {@code token} was read by {@link #gets}.
     * @param key the key
     * @param token the token from {@link #gets}
     * @param value the new value
     * @param ttl time to live of the new value, {@link Duration#ZERO} for none
     * @return the outcome
     */
    CasResult cas(String key, CasToken token, V value, Duration ttl);

    /**
     * Replaces a value asynchronously, only if it has not changed since {@code token} was read.
     * @param key the key
     * @param token the token from {@link #gets}
     * @param value the new value
     * @param ttl time to live of the new value, {@link Duration#ZERO} for none
     * @return the outcome
     */
    CompletableFuture<CasResult> casAsync(String key, CasToken token, V value, Duration ttl);

    /**
     * Adds {@code delta} to a counter stored as decimal text. An absent counter starts at 0.
     * @param key the key
     * @param delta how much to add, zero or more
     * @return the new value
     */
    long incr(String key, long delta);

    /**
     * Adds {@code delta} to a counter asynchronously. An absent counter starts at 0.
     * @param key the key
     * @param delta how much to add, zero or more
     * @return the new value
     */
    CompletableFuture<Long> incrAsync(String key, long delta);

    /**
     * Subtracts {@code delta} from a counter stored as decimal text. An absent counter starts at 0.
     * Backends differ below zero: Redis goes negative, memcached stops at 0.
     * @param key the key
     * @param delta how much to subtract, zero or more
     * @return the new value
     */
    long decr(String key, long delta);

    /**
     * Subtracts {@code delta} from a counter asynchronously. An absent counter starts at 0.
     * @param key the key
     * @param delta how much to subtract, zero or more
     * @return the new value
     */
    CompletableFuture<Long> decrAsync(String key, long delta);

    /**
     * Sets a new time to live on an existing key without reading or writing its value.
     * @param key the key
     * @param ttl the new time to live, {@link Duration#ZERO} for none
     * @return whether the key existed
     */
    boolean touch(String key, Duration ttl);

    /**
     * Sets a new time to live on an existing key, asynchronously.
     * @param key the key
     * @param ttl the new time to live, {@link Duration#ZERO} for none
     * @return whether the key existed
     */
    CompletableFuture<Boolean> touchAsync(String key, Duration ttl);
}
