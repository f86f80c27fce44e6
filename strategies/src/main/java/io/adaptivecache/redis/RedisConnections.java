package io.adaptivecache.redis;

import java.time.Duration;

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
 * Opens a template's Redis connections: Lettuce connections with String keys and {@code byte[]}
 * values, all from one {@link RedisClient} and so on one set of client resources, for every
 * strategy; and, when the POOLED driver is {@link RedisDriver#JEDIS}, Jedis connections for
 * POOLED strategies ({@link #openExclusive()}).
 */
public final class RedisConnections implements ConnectionFactory<RedisConnection> {

    private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

    private final RedisClient client;
    private final RedisURI uri;
    private final String description;
    // Only when POOLED strategies run on Jedis.
    private final @Nullable JedisConnections jedis;
    private @Nullable RedisAuthentication authentication;

    /**
     * Creates a factory of Lettuce connections only.
     * @param client the client whose options and resources every connection shares
     * @param uri where to connect
     */
    public RedisConnections(RedisClient client, RedisURI uri) {
        this(client, uri, RedisDriver.LETTUCE, Duration.ofSeconds(2));
    }

    /**
     * Creates a factory.
     * @param client the client whose options and resources every Lettuce connection shares
     * @param uri where to connect (the command timeout set on it is also Jedis's socket timeout)
     * @param pooledDriver the driver of POOLED strategies' connections
     * @param connectTimeout how long connecting a Jedis connection may take
     */
    public RedisConnections(RedisClient client, RedisURI uri, RedisDriver pooledDriver, Duration connectTimeout) {
        this(client, uri, pooledDriver, connectTimeout, null);
    }

    /**
     * Creates a factory whose Jedis connections use their own TLS context.
     * @param client the client whose options and resources every Lettuce connection shares
     * @param uri where to connect (the command timeout set on it is also Jedis's socket timeout)
     * @param pooledDriver the driver of POOLED strategies' connections
     * @param connectTimeout how long connecting a Jedis connection may take
     * @param jedisSslContext the TLS context of Jedis connections to a {@code rediss://} URI; {@code null} for the JVM's default
     */
    public RedisConnections(RedisClient client, RedisURI uri, RedisDriver pooledDriver, Duration connectTimeout,
            javax.net.ssl.@Nullable SSLContext jedisSslContext) {
        this.client = client;
        this.uri = uri;
        this.description = (uri.isSsl() ? "rediss://" : "redis://") + uri.getHost() + ":" + uri.getPort()
                + (uri.getDatabase() != 0 ? "/" + uri.getDatabase() : "");
        this.jedis = pooledDriver == RedisDriver.JEDIS ? new JedisConnections(uri, connectTimeout, uri.getTimeout(), this.description,
                jedisSslContext)
                : null;
    }

    /**
     * The driver of POOLED strategies' connections.
     * @return LETTUCE or JEDIS
     */
    public RedisDriver pooledDriver() {
        return this.jedis != null ? RedisDriver.JEDIS : RedisDriver.LETTUCE;
    }

    @Override
    public RedisConnection open() {
        try {
            return RedisConnection.of(client.connect(CODEC, uri));
        }
        catch (RedisException ex) {
            throw connectFailure(this.authentication, "Cannot connect to Redis at " + description, ex);
        }
    }

    /** Reads refusals of the credentials as such (given by the template builder; without it, every failure is a connection failure). */
    void authentication(RedisAuthentication authentication) {
        this.authentication = authentication;
        if (this.jedis != null) {
            this.jedis.authentication(authentication);
        }
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
    public boolean exclusiveConnectionsBlock() {
        return this.jedis != null;
    }

    @Override
    public RedisConnection openExclusive() {
        return this.jedis != null ? this.jedis.open() : open();
    }

    @Override
    public boolean isUsable(RedisConnection connection) {
        return connection.jedis() != null ? JedisConnections.isUsable(connection.jedis()) : connection.lettuce().isOpen();
    }

    @Override
    public void close(RedisConnection connection) {
        if (connection.jedis() != null) {
            JedisConnections.close(connection.jedis());
        }
        else {
            connection.lettuce().close();
        }
    }

    @Override
    public String describe() {
        return description;
    }
}
