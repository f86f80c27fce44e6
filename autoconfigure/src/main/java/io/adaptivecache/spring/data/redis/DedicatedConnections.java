package io.adaptivecache.spring.data.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.adaptivecache.CacheException;
import io.adaptivecache.redis.RedisConnectionLeases;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionProvider;

/**
 * The connections Spring Data Redis asks for when a command must not share one (a transaction,
 * a pipeline, a blocking command such as BLPOP) and for subscriptions: each a new connection of
 * its own, opened with the template's client, options and credentials, and closed when Spring
 * Data releases it, as {@code LettuceConnectionFactory} does without a pool. These are not the
 * strategy's connections: a switch neither drains nor closes them.
 */
final class DedicatedConnections implements LettuceConnectionProvider {

    private final RedisConnectionLeases leases;

    DedicatedConnections(RedisConnectionLeases leases) {
        this.leases = leases;
    }

    @Override
    public <T extends StatefulConnection<?, ?>> CompletionStage<T> getConnectionAsync(Class<T> connectionType) {
        try {
            return CompletableFuture.completedFuture(connectionType.cast(open(connectionType)));
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    private StatefulConnection<byte[], byte[]> open(Class<?> connectionType) {
        try {
            if (StatefulRedisPubSubConnection.class.isAssignableFrom(connectionType)) {
                return this.leases.openPubSub(ByteArrayCodec.INSTANCE);
            }
            return this.leases.openDedicated(ByteArrayCodec.INSTANCE);
        }
        catch (CacheException ex) {
            // Spring Data reads a RedisConnectionException as a connection failure (RedisConnectionFailureException).
            throw new RedisConnectionException(ex.getMessage(), ex);
        }
    }

    @Override
    public CompletableFuture<Void> releaseAsync(StatefulConnection<?, ?> connection) {
        return connection.closeAsync();
    }
}
