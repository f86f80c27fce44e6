package io.adaptivecache.redis.tracking;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.KeyValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic proof that a session still carries every invalidation: a {@code PING} on the live
 * tracking connection, whose answer proves that every invalidation the server sent before it has
 * been handled (one connection, in order), so serving may go on until the staleness bound after
 * it was sent. No answer within the heartbeat timeout loses the session, and so does a marker
 * that the {@code MGET} sent just before the {@code PING} did not find with this session's token
 * (see {@link KeyspaceMarker}). Then the templates of the subscriptions read the marker too
 * ({@link DataPathChecks}).
 *
 * <p>A class of its own because it is the one periodic task of the source, on its scheduler
 * thread: it decides nothing about sessions itself, it reports answers to
 * {@link TrackingConnection#proven} and failures to {@link TrackingConnection#lose}.
 */
final class Heartbeat implements Runnable {

    private static final Logger logger = LoggerFactory.getLogger(Heartbeat.class);

    private final TrackingConnection tracking;
    private final KeyspaceMarker marker;
    private final DataPathChecks dataPaths;
    private final List<TrackedSubscription> subscriptions;
    private final Duration heartbeatTimeout;
    private final String description;

    Heartbeat(TrackingConnection tracking, KeyspaceMarker marker, DataPathChecks dataPaths, List<TrackedSubscription> subscriptions,
            Duration heartbeatTimeout, String description) {
        this.tracking = tracking;
        this.marker = marker;
        this.dataPaths = dataPaths;
        this.subscriptions = subscriptions;
        this.heartbeatTimeout = heartbeatTimeout;
        this.description = description;
    }

    @Override
    public void run() {
        try {
            send();
        }
        catch (RuntimeException ex) {
            // Never let the periodic task die: without heartbeats the near caches would stop serving for good.
            logger.debug("Heartbeat on {} failed: {}", description, ex.toString());
        }
    }

    private void send() {
        StatefulRedisConnection<String, String> connection;
        String token;
        synchronized (tracking.lock) {
            connection = tracking.isLive() ? tracking.current() : null;
            token = tracking.markerToken();
        }
        if (connection == null) {
            return;
        }
        long sentAt = System.nanoTime();
        try {
            RedisAsyncCommands<String, String> commands = connection.async();
            marker.refreshIfDue(commands, sentAt);
            // MGET rather than GET: the servers' GET counts stay the callers' (tests and dashboards read them).
            CompletableFuture<List<KeyValue<String, String>>> read = commands.mget(marker.key()).toCompletableFuture();
            read.thenCombine(commands.ping().toCompletableFuture(), (values, pong) -> values)
                    .orTimeout(heartbeatTimeout.toNanos(), TimeUnit.NANOSECONDS)
                    .whenComplete((values, failure) -> {
                        if (failure != null) {
                            tracking.lose(connection, "no heartbeat answer within " + heartbeatTimeout.toMillis() + " ms: "
                                    + failure);
                        }
                        else if (!token.equals(KeyspaceMarker.value(values))) {
                            tracking.lose(connection, tracking.markerLost(KeyspaceMarker.value(values)));
                        }
                        else {
                            tracking.proven(connection, sentAt);
                        }
                    });
        }
        catch (RuntimeException ex) {
            tracking.lose(connection, "the heartbeat could not be sent: " + ex);
        }
        dataPaths.check(subscriptions);
    }
}
