package io.adaptivecache.call;

import java.util.Objects;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * Runs a {@link Command} on <b>one</b> native connection: the one method through which every layer
 * between a template and the wire passes a command on (node observation, driver binding), so that
 * each is written once for every command. A backend's own commands are a
 * {@link CommandHandler}, adapted by {@link #of}. Arguments arrive validated by
 * {@link io.adaptivecache.backend.CacheInputRules}; implementations issue the command without blocking and complete the
 * stage when the reply arrives.
 *
 * @param <C> the native connection type
 */
@FunctionalInterface
public interface CacheCommands<C> {

    /**
     * Issues a command.
     * @param connection the connection
     * @param command the command
     * @param <T> its result
     * @return the reply, when it arrives
     */
    <T extends @Nullable Object> CompletionStage<T> execute(C connection, Command<T> command);

    /**
     * The commands of a backend's handler.
     * @param handler issues each command on a connection
     * @param <C> the native connection type
     * @return the commands
     */
    static <C> CacheCommands<C> of(CommandHandler<C> handler) {
        Objects.requireNonNull(handler, "handler");
        return new CacheCommands<>() {
            @Override
            public <T extends @Nullable Object> CompletionStage<T> execute(C connection, Command<T> command) {
                return command.sendTo(handler, connection);
            }

            @Override
            public String toString() {
                return handler.toString();
            }
        };
    }
}
