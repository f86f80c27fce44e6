package io.adaptivecache.call;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import org.jspecify.annotations.Nullable;

/**
 * One cache command as a value: what a caller asked for, on raw {@code byte[]} values. Every
 * layer between the caller and the wire (the template, the guard, the strategy, node observation,
 * driver binding, the near cache) passes a command on through one method, so a layer is written
 * once for every command; only a backend, which must speak each command to its server, names
 * them one by one, in its {@link CommandHandler}.
 *
 * <p>Adding a command means: a record here (with the traits that say what it carries, which is
 * also what gets validated), a method in {@link CommandHandler} (so that each backend must implement it
 * to compile), a constant in {@link CacheCommand} and the user's method on
 * {@link io.adaptivecache.CacheOperations}.
 *
 * @param <T> the command's result
 */
public sealed interface Command<T extends @Nullable Object> permits Command.Keyed, Command.GetAll {

    /**
     * Which command this is, as a low-cardinality tag for metrics, guards and observations.
     * @return the command's kind
     */
    CacheCommand kind();

    /**
     * Issues this command through a backend's handler.
     * @param handler the backend's commands
     * @param connection the native connection to issue it on
     * @param <C> the native connection type
     * @return the reply, when it arrives
     */
    <C> CompletionStage<T> sendTo(CommandHandler<C> handler, C connection);

    /**
     * What a template that degrades failures answers when this command fails: a miss for a read,
     * "not stored" for a write. Only asked when {@link CacheCommand#degradable()} holds.
     * @return the answer of a degraded call
     */
    T degraded();

    /**
     * The bytes of the values this command sends (for the value-size figures).
     * @return the bytes sent, zero for a command without a value
     */
    default int sentBytes() {
        return 0;
    }

    /**
     * The bytes of the values in a reply to this command (for the value-size figures).
     * @param result the reply
     * @return the bytes received, zero for a reply without a value
     */
    default int receivedBytes(T result) {
        return 0;
    }

    /**
     * A command on one key: each is served by the node that owns its key.
     * @param <T> the command's result
     */
    sealed interface Keyed<T extends @Nullable Object> extends Command<T> permits Get, Gets, Delete, Exists, Storing, Touch, Counting {

        /**
         * The key.
         * @return the key
         */
        String key();
    }

    /**
     * A command that stores a value, with a time to live.
     * @param <T> the command's result
     */
    sealed interface Storing<T extends @Nullable Object> extends Keyed<T> permits Set, Add, Replace, Cas {

        /**
         * The value to store.
         * @return the value
         */
        byte[] value();

        /**
         * The time to live, zero for none.
         * @return the TTL
         */
        Duration ttl();

        @Override
        default int sentBytes() {
            return value().length;
        }
    }

    /** A command that adds a delta to a counter. */
    sealed interface Counting extends Keyed<Long> permits Incr, Decr {

        /**
         * The delta, zero or more.
         * @return the delta
         */
        long delta();

        @Override
        default Long degraded() {
            throw new IllegalStateException(kind().tag() + " is never degraded: a counter's value cannot be made up");
        }
    }

    /**
     * GET.
     * @param key the key
     */
    record Get(String key) implements Keyed<byte @Nullable []> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.GET;
        }

        @Override
        public <C> CompletionStage<byte @Nullable []> sendTo(CommandHandler<C> handler, C connection) {
            return handler.get(connection, key);
        }

        @Override
        public byte @Nullable [] degraded() {
            return null;
        }

        @Override
        public int receivedBytes(byte @Nullable [] result) {
            return result == null ? 0 : result.length;
        }
    }

    /**
     * Multi-get.
     * @param keys distinct keys, at least one, in the order of the reply; not copied, so pass a list no one changes
     */
    record GetAll(List<String> keys) implements Command<Map<String, byte[]>> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.GET_ALL;
        }

        @Override
        public <C> CompletionStage<Map<String, byte[]>> sendTo(CommandHandler<C> handler, C connection) {
            return handler.getAll(connection, keys);
        }

        @Override
        public Map<String, byte[]> degraded() {
            return Collections.emptyMap();
        }

        @Override
        public int receivedBytes(Map<String, byte[]> result) {
            long bytes = 0;
            for (byte[] value : result.values()) {
                bytes += value == null ? 0 : value.length;
            }
            return (int) Math.min(bytes, Integer.MAX_VALUE);
        }
    }

    /**
     * GETS.
     * @param key the key
     */
    record Gets(String key) implements Keyed<@Nullable CasValue<byte[]>> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.GETS;
        }

        @Override
        public <C> CompletionStage<@Nullable CasValue<byte[]>> sendTo(CommandHandler<C> handler, C connection) {
            return handler.gets(connection, key);
        }

        @Override
        public @Nullable CasValue<byte[]> degraded() {
            return null;
        }

        @Override
        public int receivedBytes(@Nullable CasValue<byte[]> result) {
            return result == null ? 0 : result.value().length;
        }
    }

    /**
     * SET.
     * @param key the key
     * @param value the value
     * @param ttl time to live, zero for none
     */
    record Set(String key, byte[] value, Duration ttl) implements Storing<Void> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.SET;
        }

        @Override
        public <C> CompletionStage<Void> sendTo(CommandHandler<C> handler, C connection) {
            return handler.set(connection, key, value, ttl);
        }

        @Override
        @SuppressWarnings("NullAway") // Void has no value but null
        public Void degraded() {
            return null;
        }
    }

    /**
     * ADD: store only if absent.
     * @param key the key
     * @param value the value
     * @param ttl time to live, zero for none
     */
    record Add(String key, byte[] value, Duration ttl) implements Storing<Boolean> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.ADD;
        }

        @Override
        public <C> CompletionStage<Boolean> sendTo(CommandHandler<C> handler, C connection) {
            return handler.add(connection, key, value, ttl);
        }

        @Override
        public Boolean degraded() {
            return Boolean.FALSE;
        }
    }

    /**
     * REPLACE: store only if present.
     * @param key the key
     * @param value the value
     * @param ttl time to live, zero for none
     */
    record Replace(String key, byte[] value, Duration ttl) implements Storing<Boolean> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.REPLACE;
        }

        @Override
        public <C> CompletionStage<Boolean> sendTo(CommandHandler<C> handler, C connection) {
            return handler.replace(connection, key, value, ttl);
        }

        @Override
        public Boolean degraded() {
            return Boolean.FALSE;
        }
    }

    /**
     * CAS: store only if the value is still the one {@code token} was read with.
     * @param key the key
     * @param token the token from a GETS of this key
     * @param value the new value
     * @param ttl time to live, zero for none
     */
    record Cas(String key, CasToken token, byte[] value, Duration ttl) implements Storing<CasResult> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.CAS;
        }

        @Override
        public <C> CompletionStage<CasResult> sendTo(CommandHandler<C> handler, C connection) {
            return handler.cas(connection, key, token, value, ttl);
        }

        @Override
        public CasResult degraded() {
            throw new IllegalStateException("cas is never degraded: its outcome cannot be made up");
        }
    }

    /**
     * DELETE.
     * @param key the key
     */
    record Delete(String key) implements Keyed<Boolean> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.DELETE;
        }

        @Override
        public <C> CompletionStage<Boolean> sendTo(CommandHandler<C> handler, C connection) {
            return handler.delete(connection, key);
        }

        @Override
        public Boolean degraded() {
            return Boolean.FALSE;
        }
    }

    /**
     * EXISTS: whether a key is present.
     * @param key the key
     */
    record Exists(String key) implements Keyed<Boolean> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.EXISTS;
        }

        @Override
        public <C> CompletionStage<Boolean> sendTo(CommandHandler<C> handler, C connection) {
            return handler.exists(connection, key);
        }

        @Override
        public Boolean degraded() {
            return Boolean.FALSE;
        }
    }

    /**
     * TOUCH: a new TTL without reading the value.
     * @param key the key
     * @param ttl time to live, zero for none
     */
    record Touch(String key, Duration ttl) implements Keyed<Boolean> {

        @Override
        public CacheCommand kind() {
            return CacheCommand.TOUCH;
        }

        @Override
        public <C> CompletionStage<Boolean> sendTo(CommandHandler<C> handler, C connection) {
            return handler.touch(connection, key, ttl);
        }

        @Override
        public Boolean degraded() {
            return Boolean.FALSE;
        }
    }

    /**
     * INCR.
     * @param key the key
     * @param delta zero or more
     */
    record Incr(String key, long delta) implements Counting {

        @Override
        public CacheCommand kind() {
            return CacheCommand.INCR;
        }

        @Override
        public <C> CompletionStage<Long> sendTo(CommandHandler<C> handler, C connection) {
            return handler.incr(connection, key, delta);
        }
    }

    /**
     * DECR.
     * @param key the key
     * @param delta zero or more
     */
    record Decr(String key, long delta) implements Counting {

        @Override
        public CacheCommand kind() {
            return CacheCommand.DECR;
        }

        @Override
        public <C> CompletionStage<Long> sendTo(CommandHandler<C> handler, C connection) {
            return handler.decr(connection, key, delta);
        }
    }
}
