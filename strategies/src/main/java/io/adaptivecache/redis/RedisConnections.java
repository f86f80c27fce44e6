package io.adaptivecache.redis;

import java.util.List;

import io.adaptivecache.CacheConnectionException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;

/**
 * Opens a template's Lettuce connections, with String keys and {@code byte[]} values, all from
 * one {@link RedisClient} and so on one set of client resources: every strategy's connections
 * on a Lettuce template, and those of SINGLE, MULTI and the async lane on a Jedis-pooled one
 * (whose Jedis connections {@code JedisConnections} opens).
 */
public final class RedisConnections extends LettuceConnections<StatefulRedisConnection<String, byte[]>> {

    private final RedisClient client;
    private final RedisURI uri;

    /**
     * Creates a factory.
     * @param client the client whose options and resources every connection shares
     * @param uri where to connect
     */
    public RedisConnections(RedisClient client, RedisURI uri) {
        super((uri.isSsl() ? "rediss://" : "redis://") + uri.getHost() + ":" + uri.getPort()
                + (uri.getDatabase() != 0 ? "/" + uri.getDatabase() : ""));
        this.client = client;
        this.uri = uri;
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

    /**
     * Opens a SINGLE or MULTI strategy's connections each on an I/O thread of its own while there
     * are threads enough, when the client is the template's own ({@link SpreadingRedisClient});
     * otherwise one after the other.
     */
    @Override
    public List<StatefulRedisConnection<String, byte[]>> openShared(int count) {
        if (client instanceof SpreadingRedisClient spreading) {
            return spreading.openApart(count, this::open, this::close);
        }
        return super.openShared(count);
    }

    /**
     * Opens a connection of its own with another codec, to the same server with the same client
     * options, resources and credentials as the template's: for a caller that needs a connection
     * no one else uses (a transaction, a blocking command). The caller closes it.
     * @param codec the codec
     * @param <K> the key type
     * @param <V> the value type
     * @return the connection
     * @throws CacheConnectionException if the server cannot be reached or refuses the credentials
     */
    public <K, V> StatefulRedisConnection<K, V> openDedicated(RedisCodec<K, V> codec) {
        try {
            return client.connect(codec, uri);
        }
        catch (RedisException ex) {
            throw connectFailure(this.authentication, "Cannot connect to Redis at " + description, ex);
        }
    }

    /**
     * Opens a publish/subscribe connection of its own, as {@link #openDedicated} opens a connection.
     * @param codec the codec
     * @param <K> the key (channel) type
     * @param <V> the message type
     * @return the connection; the caller closes it
     * @throws CacheConnectionException if the server cannot be reached or refuses the credentials
     */
    public <K, V> StatefulRedisPubSubConnection<K, V> openPubSub(RedisCodec<K, V> codec) {
        try {
            return client.connectPubSub(codec, uri);
        }
        catch (RedisException ex) {
            throw connectFailure(this.authentication, "Cannot connect to Redis at " + description, ex);
        }
    }

    /**
     * The database every connection of this factory selects.
     * @return the database index
     */
    public int database() {
        return uri.getDatabase();
    }

    /**
     * The command timeout every connection of this factory is opened with.
     * @return the timeout
     */
    public java.time.Duration commandTimeout() {
        return uri.getTimeout();
    }

    private static boolean closedDuringHandshake(Throwable failure) {
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause.getMessage() != null && cause.getMessage().contains("closed prematurely")) {
                return true;
            }
        }
        return false;
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
}
