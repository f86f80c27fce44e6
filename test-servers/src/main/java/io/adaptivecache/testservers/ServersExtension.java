package io.adaptivecache.testservers;

import java.util.function.Consumer;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every extension here does: holds the servers of a test class, starts them before its
 * first test and stops them after its last. Register a subclass on a {@code static} field, so that
 * the class's tests share the servers.
 * @param <S> the servers: one server, a cluster, a list
 */
public abstract class ServersExtension<S> implements BeforeAllCallback, AfterAllCallback {

    private final S servers;
    private final Consumer<S> start;
    private final Consumer<S> stop;

    /**
     * @param servers the servers, not started yet
     * @param start starts them (and waits until they serve)
     * @param stop stops them
     */
    protected ServersExtension(S servers, Consumer<S> start, Consumer<S> stop) {
        this.servers = servers;
        this.start = start;
        this.stop = stop;
    }

    /** The servers, running between the class's first test and its last. */
    protected S servers() {
        return this.servers;
    }

    @Override
    public final void beforeAll(ExtensionContext context) {
        this.start.accept(this.servers);
    }

    @Override
    public final void afterAll(ExtensionContext context) {
        this.stop.accept(this.servers);
    }
}
