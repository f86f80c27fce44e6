package io.adaptivecache.redis;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.strategy.ConnectionFactory;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * Opens a template's Lettuce connections, with String keys and {@code byte[]} values, all from
 * one {@link RedisClient} and so on one set of client resources: every strategy's connections
 * on a Lettuce template, and those of SINGLE, MULTI and the async lane on a Jedis-pooled one
 * (whose Jedis connections {@code JedisConnections} opens).
 */
public final class RedisConnections implements ConnectionFactory<StatefulRedisConnection<String, byte[]>> {

    private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

    private final RedisClient client;
    private final RedisURI uri;
    private final String description;
    private @Nullable RedisAuthentication authentication;

    /**
     * Creates a factory.
     * @param client the client whose options and resources every connection shares
     * @param uri where to connect
     */
    public RedisConnections(RedisClient client, RedisURI uri) {
        this.client = client;
        this.uri = uri;
        this.description = (uri.isSsl() ? "rediss://" : "redis://") + uri.getHost() + ":" + uri.getPort()
                + (uri.getDatabase() != 0 ? "/" + uri.getDatabase() : "");
    }

    @Override
    public StatefulRedisConnection<String, byte[]> open() {
        try {
            return client.connect(CODEC, uri);
        }
        catch (RedisException ex) {
            if (this.authentication != null && RedisAuthentication.refusal(ex) == null && closedDuringHandshake(ex)) {
                // Lettuce at times reports a HELLO the server refused as the connection closing under the handshake
                // ("closed prematurely"), the server's WRONGPASS lost. One more attempt tells a refusal of the credentials
                // from a server that really closes; whatever it gives, the first failure stays attached.
                try {
                    return client.connect(CODEC, uri);
                }
                catch (RedisException again) {
                    again.addSuppressed(ex);
                    throw connectFailure(this.authentication, "Cannot connect to Redis at " + description, again);
                }
            }
            throw connectFailure(this.authentication, "Cannot connect to Redis at " + description, ex);
        }
    }

    private static boolean closedDuringHandshake(Throwable failure) {
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().contains("closed prematurely")) {
                return true;
            }
        }
        return false;
    }

    /** Reads refusals of the credentials as such (given by the template builder; without it, every failure is a connection failure). */
    void authentication(RedisAuthentication authentication) {
        this.authentication = authentication;
    }

    /** A failure to connect: the server's refusal of the credentials when it was one, else a connection failure. */
    static CacheConnectionException connectFailure(@Nullable RedisAuthentication authentication, String what,
            RuntimeException failure) {
        String refusal = authentication != null ? RedisAuthentication.refusal(failure) : null;
        if (refusal != null) {
            return authentication.refused(refusal, "when connecting", failure);
        }
        return new CacheConnectionException(what + ": " + failure.getMessage(), failure);
    }

    @Override
    public boolean isUsable(StatefulRedisConnection<String, byte[]> connection) {
        return connection.isOpen();
    }

    @Override
    public void close(StatefulRedisConnection<String, byte[]> connection) {
        connection.close();
    }

    @Override
    public String describe() {
        return description;
    }
}
