package io.adaptivecache.redis;

import java.util.Objects;
import java.util.Optional;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ConnectionLeases;

/**
 * How many commands a Redis template's Lettuce connections wrote, in how many socket writes, since
 * the template's client resources were created; {@link #commandsPerWrite()} shows how well the
 * commands of concurrent callers were coalesced ({@link AbstractRedisTemplateBuilder#coalesceWrites}).
 * A diagnostic for tuning and benchmarks: read it twice and take {@link #since} for an interval.
 *
 * <p>Counted on every Lettuce connection of the template: SINGLE, MULTI, a Lettuce POOLED, the
 * asynchronous lane of a Jedis POOLED, the dedicated and publish/subscribe connections of Spring
 * Data Redis on the template, and the handshake of each. Jedis's own blocking connections are not
 * counted. A socket write is a flush that reaches the transport with bytes to send; a write too large
 * for the socket's buffer takes more than one system call, and flushes made while the socket is full
 * are sent together once it drains.
 *
 * @param commands commands written
 * @param writes socket writes that carried them
 */
public record RedisWrites(long commands, long writes) {

    /**
     * The commands and socket writes of a template's Lettuce connections, read now without a lock.
     * @param template a template built by {@link RedisCacheTemplates} or {@link RedisClusterCacheTemplates}
     * @return the counts; empty when the template is not one of those, or when it was given the
     *     application's own client resources ({@link AbstractRedisTemplateBuilder#clientResources(io.lettuce.core.resource.ClientResources)}),
     *     whose connections it neither counts nor coalesces
     */
    public static Optional<RedisWrites> of(ManagedCacheTemplate template) {
        Objects.requireNonNull(template, "template");
        if (!(template instanceof ConnectionLeases<?> leases)) {
            return Optional.empty();
        }
        ConnectionFactory<?> factory = leases.connectionFactory();
        // A Jedis-pooled template's factory binds each connection to its driver; its Lettuce side is the driver.
        if (factory instanceof BoundConnection.Factory<?> bound) {
            factory = bound.driver();
        }
        if (factory instanceof LettuceConnections<?> lettuce && lettuce.channelWrites != null) {
            return Optional.ofNullable(lettuce.channelWrites.counts());
        }
        return Optional.empty();
    }

    /**
     * Commands per socket write: 1 when every command went out on its own, more when the commands of
     * concurrent callers shared writes.
     * @return the ratio, or 0 before the first write
     */
    public double commandsPerWrite() {
        return this.writes == 0 ? 0 : (double) this.commands / this.writes;
    }

    /**
     * The commands and writes between an earlier reading and this one.
     * @param earlier a reading of the same template taken before this one
     * @return the difference
     */
    public RedisWrites since(RedisWrites earlier) {
        return new RedisWrites(this.commands - earlier.commands, this.writes - earlier.writes);
    }
}
