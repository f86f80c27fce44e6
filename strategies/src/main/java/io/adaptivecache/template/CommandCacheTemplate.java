package io.adaptivecache.template;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.call.Command;
import io.adaptivecache.call.CommandExecutor;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CacheTemplate} whose every named method builds its {@link Command} and runs it through
 * {@link #execute} or {@link #executeAsync}: a template, or a layer over one, implements those two
 * and no command one by one. The synchronous methods run {@link #execute}, so that a synchronous
 * caller may be served on its own thread (a blocking pool's connection); the {@code ...Async}
 * methods run {@link #executeAsync}.
 */
public abstract class CommandCacheTemplate implements CacheTemplate, CommandExecutor {

    /** For subclasses. */
    protected CommandCacheTemplate() {
    }

    /**
     * The keys of a multi-get as one command: each at most once, in the caller's order.
     * @param keys the caller's keys
     * @return the command, or {@code null} for no key at all (answered by an empty map, nothing sent)
     * @throws InvalidCacheInputException if {@code keys} is null or names a key twice
     */
    protected static Command.@Nullable GetAll getAllOf(Collection<String> keys) {
        if (keys == null) {
            throw new InvalidCacheInputException("The key collection must not be null");
        }
        if (keys.isEmpty()) {
            return null;
        }
        LinkedHashSet<String> distinct = new LinkedHashSet<>(Math.max(16, keys.size() * 2));
        for (String key : keys) {
            if (!distinct.add(key)) {
                throw new InvalidCacheInputException("Key " + (key == null ? "null" : CacheInputRules.quote(key))
                        + " appears more than once in the keys given to getAll; pass each key once");
            }
        }
        List<String> ordered = new ArrayList<>(distinct);
        return new Command.GetAll(ordered);
    }

    @Override
    public byte @Nullable [] get(String key) {
        return execute(new Command.Get(key));
    }

    @Override
    public CompletableFuture<byte @Nullable []> getAsync(String key) {
        return executeAsync(new Command.Get(key));
    }

    @Override
    public Map<String, byte[]> getAll(Collection<String> keys) {
        Command.GetAll command = getAllOf(keys);
        return command == null ? Collections.emptyMap() : execute(command);
    }

    @Override
    public CompletableFuture<Map<String, byte[]>> getAllAsync(Collection<String> keys) {
        Command.GetAll command = getAllOf(keys);
        return command == null ? CompletableFuture.completedFuture(Collections.emptyMap()) : executeAsync(command);
    }

    @Override
    public void set(String key, byte[] value, Duration ttl) {
        execute(new Command.Set(key, value, ttl));
    }

    @Override
    public CompletableFuture<Void> setAsync(String key, byte[] value, Duration ttl) {
        return executeAsync(new Command.Set(key, value, ttl));
    }

    @Override
    public boolean add(String key, byte[] value, Duration ttl) {
        return execute(new Command.Add(key, value, ttl));
    }

    @Override
    public CompletableFuture<Boolean> addAsync(String key, byte[] value, Duration ttl) {
        return executeAsync(new Command.Add(key, value, ttl));
    }

    @Override
    public boolean replace(String key, byte[] value, Duration ttl) {
        return execute(new Command.Replace(key, value, ttl));
    }

    @Override
    public CompletableFuture<Boolean> replaceAsync(String key, byte[] value, Duration ttl) {
        return executeAsync(new Command.Replace(key, value, ttl));
    }

    @Override
    public boolean exists(String key) {
        return execute(new Command.Exists(key));
    }

    @Override
    public CompletableFuture<Boolean> existsAsync(String key) {
        return executeAsync(new Command.Exists(key));
    }

    @Override
    public boolean delete(String key) {
        return execute(new Command.Delete(key));
    }

    @Override
    public CompletableFuture<Boolean> deleteAsync(String key) {
        return executeAsync(new Command.Delete(key));
    }

    @Override
    public @Nullable CasValue<byte[]> gets(String key) {
        return execute(new Command.Gets(key));
    }

    @Override
    public CompletableFuture<@Nullable CasValue<byte[]>> getsAsync(String key) {
        return executeAsync(new Command.Gets(key));
    }

    @Override
    public CasResult cas(String key, CasToken token, byte[] value, Duration ttl) {
        return execute(new Command.Cas(key, token, value, ttl));
    }

    @Override
    public CompletableFuture<CasResult> casAsync(String key, CasToken token, byte[] value, Duration ttl) {
        return executeAsync(new Command.Cas(key, token, value, ttl));
    }

    @Override
    public long incr(String key, long delta) {
        return execute(new Command.Incr(key, delta));
    }

    @Override
    public CompletableFuture<Long> incrAsync(String key, long delta) {
        return executeAsync(new Command.Incr(key, delta));
    }

    @Override
    public long decr(String key, long delta) {
        return execute(new Command.Decr(key, delta));
    }

    @Override
    public CompletableFuture<Long> decrAsync(String key, long delta) {
        return executeAsync(new Command.Decr(key, delta));
    }

    @Override
    public boolean touch(String key, Duration ttl) {
        return execute(new Command.Touch(key, ttl));
    }

    @Override
    public CompletableFuture<Boolean> touchAsync(String key, Duration ttl) {
        return executeAsync(new Command.Touch(key, ttl));
    }
}
