package io.adaptivecache.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.call.Command;
import io.adaptivecache.strategy.ConnectionFactory;
import org.jspecify.annotations.Nullable;



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

    /** Runs a command on this connection's own commands, on its own type N, which the wildcard in {@link #COMMANDS} cannot name. */
    private <T extends @Nullable Object> CompletionStage<T> execute(Command<T> command) {
        return this.commands.execute(this.connection, command);
    }

    /** Hands each command to the connection's own commands. */
    private static final class Commands implements CacheCommands<BoundConnection<?>> {

        @Override
        public <T extends @Nullable Object> CompletionStage<T> execute(BoundConnection<?> connection, Command<T> command) {
            return connection.execute(command);
        }
    }

    /**
     * Opens one driver's connections, each bound to that driver's commands and to this factory's
     * driver factory, which checks and closes it. A Jedis-pooled template has two, Lettuce's and
     * Jedis's, that differ only in these two parts.
     *
     * @param <N> the driver's connection type
     */
    static class Factory<N> implements ConnectionFactory<BoundConnection<?>> {

        private final ConnectionFactory<N> driver;
        private final CacheCommands<N> commands;

        /**
         * @param driver opens, checks and closes the driver's connections
         * @param commands the driver's commands
         */
        Factory(ConnectionFactory<N> driver, CacheCommands<N> commands) {
            this.driver = driver;
            this.commands = commands;
        }

        /** The driver's own factory, for what only it knows (the counts of Lettuce's writes). */
        ConnectionFactory<N> driver() {
            return this.driver;
        }

        @Override
        public BoundConnection<?> open() {
            return new BoundConnection<>(this.driver.open(), this.commands, this.driver);
        }

        @Override
        public List<BoundConnection<?>> openShared(int count) {
            // The driver's own, so that Lettuce places a MULTI's connections apart here too.
            List<BoundConnection<?>> bound = new ArrayList<>(count);
            for (N connection : this.driver.openShared(count)) {
                bound.add(new BoundConnection<>(connection, this.commands, this.driver));
            }
            return bound;
        }

        @Override
        public boolean isUsable(BoundConnection<?> connection) {
            return connection.isUsable();
        }

        @Override
        public void close(BoundConnection<?> connection) {
            connection.close();
        }

        @Override
        public String describe() {
            return this.driver.describe();
        }
    }
}
