package io.adaptivecache.testservers;

import io.adaptivecache.devservers.RedisServer;

/**
 * Starts one {@link RedisServer} for a test class and stops it afterwards. Register it on a
 * {@code static} field: {@code @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();}.
 */
public final class RedisServerExtension extends ServersExtension<RedisServer> {

    /** An extension for one server with the default settings. */
    public RedisServerExtension() {
        super(new RedisServer(), RedisServer::start, RedisServer::stop);
    }

    /** The running server. */
    public RedisServer server() {
        return servers();
    }

    /** The server's URI for Lettuce, {@code redis://127.0.0.1:PORT}. */
    public String uri() {
        return "redis://" + servers().address();
    }
}
