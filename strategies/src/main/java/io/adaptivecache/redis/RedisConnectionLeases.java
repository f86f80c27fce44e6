package io.adaptivecache.redis;

import java.time.Duration;

import io.adaptivecache.strategy.ConnectionLease;
import io.adaptivecache.strategy.ConnectionLeases;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * A standalone Lettuce Redis template's connections, lent to another client's commands (a
 * Spring Data Redis connection factory): each command leases the connection the template's live
 * strategy chooses, so that the other client runs on SINGLE, MULTI or POOLED and follows the
 * template's switches; what must not share a connection (a transaction, a blocking command,
 * a subscription) gets a connection of its own, opened like the template's. From
 * {@link RedisCacheTemplates#connectionLeases}.
 */
public final class RedisConnectionLeases {

    private final ConnectionLeases<StatefulRedisConnection<String, byte[]>> leases;
    private final RedisConnections connections;

    RedisConnectionLeases(ConnectionLeases<StatefulRedisConnection<String, byte[]>> leases, RedisConnections connections) {
        this.leases = leases;
        this.connections = connections;
    }

    /**
     * Leases the connection the live strategy chooses for one command (keys {@code String},
     * values {@code byte[]}: commands issued on it with another codec carry their own).
     * Release it exactly once, when the command's reply has arrived.
     * @return the lease
     * @throws io.adaptivecache.CacheException if the template is not running or no pooled connection became free in time
     */
    public ConnectionLease<StatefulRedisConnection<String, byte[]>> lease() {
        return leases.lease();
    }

    /**
     * Opens a connection no strategy shares, with the template's client, options and credentials.
     * @param codec the codec
     * @param <K> the key type
     * @param <V> the value type
     * @return the connection; the caller closes it
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached
     */
    public <K, V> StatefulRedisConnection<K, V> openDedicated(RedisCodec<K, V> codec) {
        return connections.openDedicated(codec);
    }

    /**
     * Opens a publish/subscribe connection, with the template's client, options and credentials.
     * @param codec the codec
     * @param <K> the channel type
     * @param <V> the message type
     * @return the connection; the caller closes it
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached
     */
    public <K, V> StatefulRedisPubSubConnection<K, V> openPubSub(RedisCodec<K, V> codec) {
        return connections.openPubSub(codec);
    }

    /**
     * The database the template's connections select.
     * @return the database index
     */
    public int database() {
        return connections.database();
    }

    /**
     * The template's command timeout.
     * @return the timeout
     */
    public Duration commandTimeout() {
        return connections.commandTimeout();
    }

    /**
     * Where the connections go, for logs and messages (never a password).
     * @return a description such as {@code redis://127.0.0.1:6379}
     */
    public String describe() {
        return connections.describe();
    }
}
