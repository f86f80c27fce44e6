package io.adaptivecache.redis;

import io.adaptivecache.strategy.ConnectionFactory;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * What the factories of a template's Lettuce connections share, to one server
 * ({@link RedisConnections}) or to a cluster ({@link RedisClusterConnections}): the codec, the
 * description that messages name, the reading of refused credentials, and a connection's life,
 * which Lettuce's stateful connections all have alike.
 *
 * @param <C> the stateful connection type
 */
abstract class LettuceConnections<C extends StatefulConnection<String, byte[]>> implements ConnectionFactory<C> {

    /** String keys and {@code byte[]} values on every connection. */
    static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

    /** Where the connections go, as messages and metrics name it. */
    final String description;

    /** Reads refusals of the credentials as such; {@code null} until the template builder gives it. */
    @Nullable RedisAuthentication authentication;

    /** Coalesces and counts the writes of the template's channels; {@code null} until the template builder gives it. */
    @Nullable ChannelWrites channelWrites;

    LettuceConnections(String description) {
        this.description = description;
    }

    /** Reads refusals of the credentials as such (given by the template builder; without it, every failure is a connection failure). */
    void authentication(RedisAuthentication authentication) {
        this.authentication = authentication;
    }

    /** What {@link RedisWrites#of} reads (given by the template builder, whose client resources install it on each channel). */
    void channelWrites(ChannelWrites channelWrites) {
        this.channelWrites = channelWrites;
    }

    @Override
    public boolean isUsable(C connection) {
        return connection.isOpen();
    }

    @Override
    public void close(C connection) {
        connection.close();
    }

    @Override
    public String describe() {
        return description;
    }
}
