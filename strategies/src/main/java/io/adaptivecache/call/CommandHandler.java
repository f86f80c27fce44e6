package io.adaptivecache.call;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import org.jspecify.annotations.Nullable;

/**
 * The commands on one native connection, implemented once per backend: the only place that
 * names every command. Arguments arrive validated; implementations issue the command without
 * blocking and complete the stage when the reply arrives.
 *
 * @param <C> the native connection type
 */
public interface CommandHandler<C> {

    /**
     * GET.
     * @param connection the connection
     * @param key the key
     * @return the value, or {@code null}
     */
    CompletionStage<byte @Nullable []> get(C connection, String key);

    /**
     * Multi-get, one request per server.
     * @param connection the connection
     * @param keys distinct keys, at least one
     * @return present keys with their values, in the order of {@code keys}
     */
    CompletionStage<Map<String, byte[]>> getAll(C connection, List<String> keys);

    /**
     * The answer of {@link #getAll} made from values found in any order: for a backend whose
     * replies come by server or by slot, or keyed in an order of the client's own.
     * @param keys the keys asked for, in the caller's order
     * @param found the values found, by key; absent keys are missing or map to {@code null}
     * @return present keys with their values, in the order of {@code keys}
     */
    static Map<String, byte[]> inKeyOrder(List<String> keys, Map<String, byte @Nullable []> found) {
        Map<String, byte[]> ordered = new LinkedHashMap<>(found.size() * 2);
        for (String key : keys) {
            byte[] value = found.get(key);
            if (value != null) {
                ordered.put(key, value);
            }
        }
        return ordered;
    }

    /**
     * SET.
     * @param connection the connection
     * @param key the key
     * @param value the value
     * @param ttl time to live, zero for none
     * @return completes when stored
     */
    CompletionStage<Void> set(C connection, String key, byte[] value, Duration ttl);

    /**
     * ADD: store only if absent.
     * @param connection the connection
     * @param key the key
     * @param value the value
     * @param ttl time to live, zero for none
     * @return whether stored
     */
    CompletionStage<Boolean> add(C connection, String key, byte[] value, Duration ttl);

    /**
     * REPLACE: store only if present.
     * @param connection the connection
     * @param key the key
     * @param value the value
     * @param ttl time to live, zero for none
     * @return whether stored
     */
    CompletionStage<Boolean> replace(C connection, String key, byte[] value, Duration ttl);

    /**
     * DELETE.
     * @param connection the connection
     * @param key the key
     * @return whether the key existed
     */
    CompletionStage<Boolean> delete(C connection, String key);

    /**
     * EXISTS: whether a key is present, without its value where the protocol allows.
     * @param connection the connection
     * @param key the key
     * @return whether the key is present
     */
    CompletionStage<Boolean> exists(C connection, String key);

    /**
     * GETS: the value and its CAS token.
     * @param connection the connection
     * @param key the key
     * @return the value and token, or {@code null}
     */
    CompletionStage<@Nullable CasValue<byte[]>> gets(C connection, String key);

    /**
     * CAS.
     * @param connection the connection
     * @param key the key
     * @param token the token from {@link #gets}
     * @param value the new value
     * @param ttl time to live, zero for none
     * @return the outcome
     */
    CompletionStage<CasResult> cas(C connection, String key, CasToken token, byte[] value, Duration ttl);

    /**
     * INCR; an absent counter starts at 0.
     * @param connection the connection
     * @param key the key
     * @param delta zero or more
     * @return the new value
     */
    CompletionStage<Long> incr(C connection, String key, long delta);

    /**
     * DECR; an absent counter starts at 0.
     * @param connection the connection
     * @param key the key
     * @param delta zero or more
     * @return the new value
     */
    CompletionStage<Long> decr(C connection, String key, long delta);

    /**
     * TOUCH: a new TTL without reading the value.
     * @param connection the connection
     * @param key the key
     * @param ttl time to live, zero for none
     * @return whether the key existed
     */
    CompletionStage<Boolean> touch(C connection, String key, Duration ttl);
}
