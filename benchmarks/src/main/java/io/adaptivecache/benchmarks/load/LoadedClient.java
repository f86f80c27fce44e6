package io.adaptivecache.benchmarks.load;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.adaptivecache.redis.RedisWrites;

/**
 * What the closed-loop callers drive: a blocking get and set of {@code byte[]} values, called
 * from many threads at once. Each target (ours, hand-written, or a peer client) adapts its own
 * API to this, doing no more than its users would write.
 */
public interface LoadedClient extends AutoCloseable {

    /**
     * Reads a value.
     * @param key the key
     * @return the value, or {@code null} on a miss
     */
    byte[] get(String key);

    /**
     * Writes a value without expiry.
     * @param key the key
     * @param value the value
     */
    void set(String key, byte[] value);

    /**
     * Waits, while the callers keep running, until a self-tuning client has settled; fixed clients
     * return at once.
     * @param loadStartedNanos when the callers started ({@link System#nanoTime()})
     * @param limit the longest wait
     * @return how it settled
     */
    default Settling settle(long loadStartedNanos, Duration limit) {
        return Settling.FIXED;
    }

    /**
     * What a self-tuning client runs now, for a phase run's timeline.
     * @return for example {@code MULTI(2)}, or {@code null} for a fixed client
     */
    default String liveStrategy() {
        return null;
    }

    /**
     * The switches a self-tuning client made since a time, oldest first, for a phase run.
     * @param since the earliest
     * @return the switches
     */
    default List<Switch> switchesSince(Instant since) {
        return List.of();
    }

    /**
     * The prefix of the keys the callers use with this client. A client whose local tier hears of
     * every write under its prefixes has a key space of its own, so that the writes of the targets
     * measured while it idles do not keep it busy.
     * @return {@link ClosedLoopRunner#KEY_PREFIX} unless the client has its own
     */
    default String keyPrefix() {
        return ClosedLoopRunner.KEY_PREFIX;
    }

    /**
     * How a client with a local tier measures the staleness of its reads, for the near-cache goals.
     * @return the probe, or {@code null} for a client that reads from the server every time
     */
    default StalenessProbe stalenessProbe() {
        return null;
    }

    /**
     * The commands and socket writes of a client's Redis connections so far, for commands per
     * socket write over a measured window: read before and after it, the difference counts.
     * @return the counts; empty for a client that does not count them (peers, memcached)
     */
    default Optional<RedisWrites> redisWrites() {
        return Optional.empty();
    }

    /** Closes every connection the client opened. */
    @Override
    void close();

    /**
     * One switch of a self-tuning client.
     * @param at when it took effect
     * @param to the strategy it switched to
     * @param reason the policy's reason, for example {@code CONNECTION_SATURATED}
     */
    record Switch(Instant at, String to, String reason) {
    }
}
