package io.adaptivecache.redis.tracking;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.KeyValue;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The marker key of one invalidation source: the proof that the keyspace under its tracking
 * connection (and under a near cache's template) is the one the session started on.
 *
 * <p>Redis reports writes, deletions and flushes to tracking clients, but not everything that
 * changes the keyspace under a connection: {@code SWAPDB} is never reported, a failover behind a
 * DNS name or virtual IP can put a healthy connection on a server that never saw this session, and
 * a flush's report can be lost with its connection. So each session writes this key with a random
 * token of its own ({@link #write}), after tracking is acknowledged and before it serves, and
 * every heartbeat reads it back: a marker that is gone or holds another token means the keyspace
 * changed without a report.
 *
 * <p>A class of its own because the key, its token format, its time to live and its refresh are
 * one contract shared by the session ({@link TrackingConnection}), the heartbeat
 * ({@link Heartbeat}) and the templates' reads ({@link DataPathChecks}); none of it decides when a
 * session is lost, which stays with the connection.
 */
final class KeyspaceMarker {

    private static final Logger logger = LoggerFactory.getLogger(KeyspaceMarker.class);

    /** Where the markers live: outside the prefixes near caches usually cache, so that their writes report nothing. */
    static final String MARKER_KEY_PREFIX = "adaptive-cache:near-marker:";

    /** How long a marker lives unless refreshed: long, so that a source that died leaves it only for a while. */
    static final long MARKER_TTL_MILLIS = TimeUnit.MINUTES.toMillis(10);

    /** How often a live session extends its marker's time to live: a tenth of it, so that missed refreshes do no harm. */
    private static final long MARKER_REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(MARKER_TTL_MILLIS / 10);

    /** The reason of a loss that is none: a reported flush removed the marker. */
    static final String FLUSHED = "a reported flush removed the marker";

    /** This source's marker key: one per source, so that sources of the same name on one server do not meet. */
    private final String key;
    private final String description;
    /** When the marker's time to live was last set, by {@link System#nanoTime()}; only the scheduler's thread touches it. */
    private long setNanos;

    KeyspaceMarker(String name, String description) {
        this.key = MARKER_KEY_PREFIX + name + ":" + UUID.randomUUID();
        this.description = description;
    }

    /** The marker key. */
    String key() {
        return key;
    }

    /**
     * Writes a new token to the marker on a session's connection, waiting for the answer; on the
     * scheduler's thread.
     * @param connection the new session's connection
     * @return the token the marker now holds
     */
    String write(StatefulRedisConnection<String, String> connection) {
        String token = UUID.randomUUID().toString();
        connection.sync().set(key, token, SetArgs.Builder.px(MARKER_TTL_MILLIS));
        setNanos = System.nanoTime();
        return token;
    }

    /**
     * Extends the marker's time to live when a tenth of it has passed since it was last set; on
     * the scheduler's thread, with a heartbeat.
     * @param commands the live connection's commands
     * @param now {@link System#nanoTime()} of the heartbeat
     */
    void refreshIfDue(RedisAsyncCommands<String, String> commands, long now) {
        if (now - setNanos > MARKER_REFRESH_NANOS) {
            // Extends the marker without writing it: a marker that is gone must stay gone for the MGET to see.
            commands.pexpire(key, MARKER_TTL_MILLIS);
            setNanos = now;
        }
    }

    /** The marker's value in the answer to an {@code MGET} of it on the source's own connection, or {@code null}. */
    static @Nullable String value(@Nullable List<KeyValue<String, String>> values) {
        return values == null || values.isEmpty() || !values.get(0).hasValue() ? null : values.get(0).getValue();
    }

    /** The marker's value in a template's {@code getAll} of it, or {@code null}. */
    @Nullable String read(@Nullable Map<String, byte[]> values) {
        byte[] raw = values == null ? null : values.get(key);
        return raw == null ? null : new String(raw, StandardCharsets.UTF_8);
    }

    /** Why a marker that did not hold the session's token, and was not taken by a reported flush, loses the session. */
    String lostReason(@Nullable String found) {
        return "the marker key " + key + (found == null ? " is gone" : " holds another session's token")
                + ": the keyspace under the connection changed without a report (SWAPDB, a failover or restart that lost"
                + " it, a flush whose report was lost, or an eviction)";
    }

    /** Deletes the marker rather than leave it to expire, waiting at most the heartbeat timeout: closing does not depend on it. */
    void delete(StatefulRedisConnection<String, String> connection, Duration heartbeatTimeout) {
        if (!connection.isOpen()) {
            return;
        }
        try {
            connection.async().del(key).toCompletableFuture().get(heartbeatTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (ExecutionException | TimeoutException | RuntimeException ex) {
            logger.debug("Could not delete the marker key {} on {}: {}", key, description, ex.toString());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
