package io.adaptivecache.redis;

import java.lang.reflect.Field;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.ConnectionLease;
import io.lettuce.core.Delegating;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

/**
 * Reads which of Lettuce's I/O threads (Netty event loops) a connection's channel is registered
 * on, from the connection itself: Lettuce keeps the channel in its endpoint, out of its API, so
 * the tests read the field.
 */
final class EventLoops {

    private EventLoops() {
    }

    /** The event loop the connection's current channel runs on. */
    static EventLoop of(StatefulRedisConnection<?, ?> connection) {
        Object writer = ((RedisChannelHandler<?, ?>) connection).getChannelWriter();
        while (writer instanceof Delegating<?> delegating) {
            writer = delegating.getDelegate();
        }
        try {
            Field field = DefaultEndpoint.class.getDeclaredField("channel");
            field.setAccessible(true);
            Channel channel = (Channel) field.get((RedisChannelWriter) writer);
            if (channel == null) {
                throw new IllegalStateException("The connection has no channel now (reconnecting?)");
            }
            return channel.eventLoop();
        }
        catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * The live SHARED strategy's connections of a template and the event loop of each, read by
     * leasing the round-robin connections in turn until {@code connections} distinct ones came.
     */
    static Map<StatefulRedisConnection<String, byte[]>, EventLoop> ofSharedConnections(ManagedCacheTemplate template,
            int connections) {
        RedisConnectionLeases leases = RedisCacheTemplates.connectionLeases(template);
        Set<StatefulRedisConnection<String, byte[]>> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        Map<StatefulRedisConnection<String, byte[]>, EventLoop> loops = new LinkedHashMap<>();
        for (int i = 0; i < connections * 4 && seen.size() < connections; i++) {
            ConnectionLease<StatefulRedisConnection<String, byte[]>> lease = leases.lease();
            try {
                if (seen.add(lease.connection())) {
                    loops.put(lease.connection(), of(lease.connection()));
                }
            }
            finally {
                lease.release();
            }
        }
        if (loops.size() != connections) {
            throw new IllegalStateException("Leased " + loops.size() + " distinct connections, expected " + connections);
        }
        return loops;
    }

    /** A loop's thread name, for messages. */
    static String name(EventLoop loop) {
        try {
            return loop.submit(() -> Thread.currentThread().getName()).get(5, java.util.concurrent.TimeUnit.SECONDS);
        }
        catch (Exception ex) {
            return loop.toString();
        }
    }
}
