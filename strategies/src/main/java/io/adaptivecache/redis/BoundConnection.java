package io.adaptivecache.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.CasResult;
import io.adaptivecache.CasToken;
import io.adaptivecache.CasValue;
import io.adaptivecache.backend.CacheCommands;
import io.adaptivecache.strategy.ConnectionFactory;

/**
 * One connection of a Jedis-pooled Redis template, bound when it was opened to its driver's
 * commands and factory: a Lettuce connection (SINGLE, MULTI and the async lane) with Lettuce's,
 * or a Jedis connection (POOLED) with Jedis's. Such a template runs both drivers, one per
 * strategy, so a call cannot know its connection's driver in advance; it runs the commands the
 * connection carries instead of asking which driver it is. A template on Lettuce alone never
 * sees this type: its connections are Lettuce's own.
 *
 * @param <N> the driver's connection type
 */
final class BoundConnection<N> {

    /** The commands of a template whose connections are bound: each runs on its connection's own commands. */
    static final CacheCommands<BoundConnection<?>> COMMANDS = new Commands();

    private final N connection;
    private final CacheCommands<N> commands;
    private final ConnectionFactory<N> factory;

    /**
     * @param connection the driver's connection
     * @param commands the driver's commands
     * @param factory the factory that opened it, which checks and closes it
     */
    BoundConnection(N connection, CacheCommands<N> commands, ConnectionFactory<N> factory) {
        this.connection = connection;
        this.commands = commands;
        this.factory = factory;
    }

    boolean isUsable() {
        return this.factory.isUsable(this.connection);
    }

    void close() {
        this.factory.close(this.connection);
    }

    @Override
    public String toString() {
        return String.valueOf(this.connection);
    }

    // One method per command, on the connection's own type N, which the wildcard in Commands cannot name.

    private CompletionStage<byte[]> get(String key) {
        return this.commands.get(this.connection, key);
    }

    private CompletionStage<Map<String, byte[]>> getAll(List<String> keys) {
        return this.commands.getAll(this.connection, keys);
    }

    private CompletionStage<Void> set(String key, byte[] value, Duration ttl) {
        return this.commands.set(this.connection, key, value, ttl);
    }

    private CompletionStage<Boolean> add(String key, byte[] value, Duration ttl) {
        return this.commands.add(this.connection, key, value, ttl);
    }

    private CompletionStage<Boolean> replace(String key, byte[] value, Duration ttl) {
        return this.commands.replace(this.connection, key, value, ttl);
    }

    private CompletionStage<Boolean> delete(String key) {
        return this.commands.delete(this.connection, key);
    }

    private CompletionStage<CasValue<byte[]>> gets(String key) {
        return this.commands.gets(this.connection, key);
    }

    private CompletionStage<CasResult> cas(String key, CasToken token, byte[] value, Duration ttl) {
        return this.commands.cas(this.connection, key, token, value, ttl);
    }

    private CompletionStage<Long> incr(String key, long delta) {
        return this.commands.incr(this.connection, key, delta);
    }

    private CompletionStage<Long> decr(String key, long delta) {
        return this.commands.decr(this.connection, key, delta);
    }

    private CompletionStage<Boolean> touch(String key, Duration ttl) {
        return this.commands.touch(this.connection, key, ttl);
    }

    /** Hands each command to the connection's own commands. */
    private static final class Commands implements CacheCommands<BoundConnection<?>> {

        @Override
        public CompletionStage<byte[]> get(BoundConnection<?> connection, String key) {
            return connection.get(key);
        }

        @Override
        public CompletionStage<Map<String, byte[]>> getAll(BoundConnection<?> connection, List<String> keys) {
            return connection.getAll(keys);
        }

        @Override
        public CompletionStage<Void> set(BoundConnection<?> connection, String key, byte[] value, Duration ttl) {
            return connection.set(key, value, ttl);
        }

        @Override
        public CompletionStage<Boolean> add(BoundConnection<?> connection, String key, byte[] value, Duration ttl) {
            return connection.add(key, value, ttl);
        }

        @Override
        public CompletionStage<Boolean> replace(BoundConnection<?> connection, String key, byte[] value, Duration ttl) {
            return connection.replace(key, value, ttl);
        }

        @Override
        public CompletionStage<Boolean> delete(BoundConnection<?> connection, String key) {
            return connection.delete(key);
        }

        @Override
        public CompletionStage<CasValue<byte[]>> gets(BoundConnection<?> connection, String key) {
            return connection.gets(key);
        }

        @Override
        public CompletionStage<CasResult> cas(BoundConnection<?> connection, String key, CasToken token, byte[] value, Duration ttl) {
            return connection.cas(key, token, value, ttl);
        }

        @Override
        public CompletionStage<Long> incr(BoundConnection<?> connection, String key, long delta) {
            return connection.incr(key, delta);
        }

        @Override
        public CompletionStage<Long> decr(BoundConnection<?> connection, String key, long delta) {
            return connection.decr(key, delta);
        }

        @Override
        public CompletionStage<Boolean> touch(BoundConnection<?> connection, String key, Duration ttl) {
            return connection.touch(key, ttl);
        }
    }
}
