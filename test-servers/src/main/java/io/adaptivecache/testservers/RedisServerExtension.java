package io.adaptivecache.testservers;

import io.adaptivecache.devservers.RedisServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts one {@link RedisServer} for a test class and stops it afterwards. Register it on a
 * {@code static} field: {@code @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();}.
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {

    private final RedisServer server = new RedisServer();

    @Override
    public void beforeAll(ExtensionContext context) {
        server.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.stop();
    }

    /** The running server. */
    public RedisServer server() {
        return server;
    }

    /** The server's URI for Lettuce, {@code redis://127.0.0.1:PORT}. */
    public String uri() {
        return "redis://" + server.address();
    }
}
