package io.adaptivecache.redis.tracking;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.adaptivecache.near.KeyPrefixes;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tracking connection of a {@link TrackingInvalidationSource} and its sessions: connecting,
 * turning {@code CLIENT TRACKING} on, handling the server's invalidation messages, losing a
 * session and reconnecting.
 *
 * <p>A session is one connection with tracking on for a set of prefixes, proven by an answered
 * {@code PING}. When the connection closes or a proof fails ({@link #lose}), the session stops
 * serving at once, every subscriber is flushed, and a new connection of this class's own making
 * replaces it: Lettuce's own reconnect would restore the connection but not
 * {@code CLIENT TRACKING}, leaving a connection that looks healthy and carries no invalidations.
 * A new session flushes every subscriber again after the server has acknowledged tracking and
 * before it serves.
 *
 * <p>This class holds the source's whole session state, under {@link #lock}; the heartbeat
 * ({@link Heartbeat}), the templates' marker reads ({@link DataPathChecks}) and the time-to-live
 * questions ({@link ServerTimeToLive}) read it, and report what they find through {@link #lose}
 * and {@link #proven}. Connecting and tracking run on the source's scheduler thread;
 * invalidations and losses are handled on the connection's I/O thread as they arrive; the read
 * path reads volatile fields only.
 */
final class TrackingConnection {

    private static final Logger logger = LoggerFactory.getLogger(TrackingConnection.class);

    private static final long FIRST_RECONNECT_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final RedisClient client;
    private final RedisURI uri;
    private final String description;
    private final long maxSilenceNanos;
    private final long maxReconnectDelayNanos;
    private final ScheduledExecutorService scheduler;
    private final List<TrackedSubscription> subscriptions;
    private final KeyspaceMarker marker;
    /** Told of every new session's subscriptions, once it serves: their templates are to read its marker. */
    private final Consumer<List<TrackedSubscription>> sessionStarted;

    /**
     * The source's one lock: guards the session state here and the subscriptions'
     * {@link TrackedSubscription#checking} flags, so that a check reads the session and claims
     * its subscriptions at one moment.
     */
    final Object lock = new Object();
    /** The connection of the current or coming session; written under {@link #lock}, read without it by the PTTL questions. */
    private volatile @Nullable StatefulRedisConnection<String, String> current;
    /** Whether {@link #current} was lost (closed, or a heartbeat went unanswered); guarded by {@link #lock}. */
    private boolean currentLost;
    /** The prefixes the server tracks on {@link #current}, or {@code null} before it acknowledged any. */
    private @Nullable KeyPrefixes tracked;
    private long reconnectDelayNanos = FIRST_RECONNECT_DELAY_NANOS;
    private boolean reconnectScheduled;
    /** Whether a failed attempt was logged at WARN since the last session; only {@link #establish()} touches it. */
    private boolean failureReported;
    /** The token the marker holds in the current session; written before {@link #session} when a session starts. */
    private volatile String markerToken = "";
    /** The last session in which the server reported a flush, which takes the marker with it; -1 for none. */
    private volatile long flushReportedIn = -1;

    private volatile boolean up;
    private volatile long session;
    /** When the last answered heartbeat (or the session's first PING) was sent, by {@link System#nanoTime()}. */
    private final AtomicLong lastProvenNanos = new AtomicLong();
    private volatile boolean closed;

    private final AtomicLong sessions = new AtomicLong();

    TrackingConnection(RedisClient client, RedisURI uri, String description, long maxSilenceNanos, long maxReconnectDelayNanos,
            ScheduledExecutorService scheduler, List<TrackedSubscription> subscriptions, KeyspaceMarker marker,
            Consumer<List<TrackedSubscription>> sessionStarted) {
        this.client = client;
        this.uri = uri;
        this.description = description;
        this.maxSilenceNanos = maxSilenceNanos;
        this.maxReconnectDelayNanos = maxReconnectDelayNanos;
        this.scheduler = scheduler;
        this.subscriptions = subscriptions;
        this.marker = marker;
        this.sessionStarted = sessionStarted;
    }

    // ---- the state, as the other parts read it

    /** Whether a session serves (tracking acknowledged, not lost since); volatile, no lock needed. */
    boolean isUp() {
        return up;
    }

    /** The current session's number (from 1), 0 before the first; volatile, no lock needed. */
    long session() {
        return session;
    }

    /** Whether the last answered heartbeat was sent less than the staleness bound ago. */
    boolean fresh() {
        return System.nanoTime() - lastProvenNanos.get() < maxSilenceNanos;
    }

    /** The connection of the current or coming session, or {@code null}; volatile, no lock needed. */
    @Nullable StatefulRedisConnection<String, String> current() {
        return current;
    }

    /** Whether a session serves and its connection is not lost; the caller holds {@link #lock}. */
    boolean isLive() {
        return up && !currentLost;
    }

    /** The token the current session's marker holds. */
    String markerToken() {
        return markerToken;
    }

    /** Whether the source was closed; volatile, no lock needed. */
    boolean isClosed() {
        return closed;
    }

    /**
     * Stops for good: no session serves or starts from now on. The caller holds {@link #lock}
     * and has seen that it was not closed.
     * @return the connection that was current, for the caller to delete the marker on and close
     */
    @Nullable StatefulRedisConnection<String, String> closeLocked() {
        closed = true;
        up = false;
        StatefulRedisConnection<String, String> connection = current;
        current = null;
        return connection;
    }

    /** A heartbeat sent at {@code sentAt} was answered on the connection: serving may go on until the staleness bound after it. */
    void proven(StatefulRedisConnection<String, String> connection, long sentAt) {
        synchronized (lock) {
            if (connection == current && !currentLost) {
                lastProvenNanos.accumulateAndGet(sentAt, Math::max);
            }
        }
    }

    /** Why the marker read on the connection did not hold the session's token: a reported flush, or a loss. */
    String markerLost(@Nullable String found) {
        if (found == null && flushReportedIn == session) {
            // Nothing was lost (the flush was reported and handled): the session only needs a new marker.
            return KeyspaceMarker.FLUSHED;
        }
        return marker.lostReason(found);
    }

    // ---- the session

    /** Opens a connection, turns tracking on for every subscription's prefixes, flushes them, and serves. */
    void establish() {
        StatefulRedisConnection<String, String> stale;
        synchronized (lock) {
            reconnectScheduled = false;
            if (closed || (current != null && !currentLost)) {
                return;
            }
            stale = current;
            current = null;
            tracked = null;
        }
        if (stale != null && stale.isOpen()) {
            stale.closeAsync();
        }
        StatefulRedisConnection<String, String> connection = null;
        try {
            // HELLO 3 (with AUTH and SETNAME from the URI) is part of connecting: RESP3 is set in the client options.
            connection = client.connect(StringCodec.UTF8, uri);
            StatefulRedisConnection<String, String> opened = connection;
            connection.addListener(this::onPush);
            connection.addListener(new RedisConnectionStateListener() {
                @Override
                public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                    lose(opened, "the connection closed");
                }
            });
            List<TrackedSubscription> subscribed = new ArrayList<>(subscriptions);
            KeyPrefixes wanted = KeyPrefixes.EVERY_KEY;
            for (int i = 0; i < subscribed.size(); i++) {
                wanted = i == 0 ? subscribed.get(0).prefixes : wanted.union(subscribed.get(i).prefixes);
            }
            if (subscribed.isEmpty()) {
                // Nothing to track yet: track nothing rather than every key; the first subscription adds its prefixes.
                wanted = null;
            }
            synchronized (lock) {
                if (closed) {
                    connection.close();
                    return;
                }
                current = connection;
                currentLost = false;
            }
            if (wanted != null) {
                connection.sync().clientTracking(trackingArgs(wanted));
            }
            // The keyspace this session tracks, marked before anything is served (see KeyspaceMarker).
            String token = marker.write(connection);
            long sentAt = System.nanoTime();
            connection.sync().ping();
            synchronized (lock) {
                requireCurrent(connection);
                tracked = wanted;
            }
            // Whatever was kept before now may have missed an invalidation: go before serving.
            for (TrackedSubscription subscription : subscribed) {
                subscription.flush();
            }
            synchronized (lock) {
                requireCurrent(connection);
                long next = session + 1;
                for (TrackedSubscription subscription : subscribed) {
                    if (wanted != null && wanted.covers(subscription.prefixes)) {
                        subscription.trackedIn = next;
                    }
                }
                lastProvenNanos.accumulateAndGet(sentAt, Math::max);
                markerToken = token;
                session = next;
                up = true;
                reconnectDelayNanos = FIRST_RECONNECT_DELAY_NANOS;
            }
            failureReported = false;
            // Subscriptions over a template serve once it has read the new marker: a round trip from now.
            sessionStarted.accept(subscribed);
            long count = sessions.incrementAndGet();
            if (count > 1) {
                logger.info("Invalidations from {} flow again (session {}); near caches serve again after a flush", description,
                        count);
            }
        }
        catch (RuntimeException ex) {
            synchronized (lock) {
                if (current == connection) {
                    currentLost = true;
                }
                up = false;
            }
            if (connection != null) {
                connection.closeAsync();
            }
            if (!failureReported) {
                // Once per outage: a server without RESP3 (before Redis 6) or a user not allowed CLIENT TRACKING shows here.
                failureReported = true;
                logger.warn("Cannot track invalidations on {} ({}); near caches read from the server meanwhile, retrying",
                        description, ex.toString());
            }
            else {
                logger.debug("Cannot track invalidations on {} yet: {}", description, ex.toString());
            }
            scheduleReconnect();
        }
    }

    private void requireCurrent(StatefulRedisConnection<String, String> connection) {
        if (current != connection || currentLost || closed) {
            throw new IllegalStateException("the connection was lost while tracking was being set up");
        }
    }

    private static TrackingArgs trackingArgs(KeyPrefixes prefixes) {
        TrackingArgs args = TrackingArgs.Builder.enabled().bcast();
        if (!prefixes.isEveryKey()) {
            args.prefixes(prefixes.prefixes().toArray(String[]::new));
        }
        return args;
    }

    /** Adds a new subscription's prefixes to the live session, or leaves it to the next session; on the scheduler's thread. */
    void track(TrackedSubscription subscription) {
        StatefulRedisConnection<String, String> connection;
        KeyPrefixes trackedNow;
        synchronized (lock) {
            if (!up || currentLost || current == null || !subscription.open) {
                // Not live: the next establish() tracks every open subscription.
                return;
            }
            connection = current;
            trackedNow = tracked;
        }
        KeyPrefixes wanted = trackedNow == null ? subscription.prefixes : trackedNow.union(subscription.prefixes);
        if (trackedNow != null && !trackedNow.prefixes().stream().allMatch(wanted.prefixes()::contains)) {
            // A wider prefix than one tracked: Redis refuses overlapping prefixes, so start a session with the new set.
            lose(connection, "a subscription widens the tracked prefixes to " + wanted);
            return;
        }
        try {
            if (trackedNow == null || !trackedNow.equals(wanted)) {
                List<String> added = new ArrayList<>(wanted.prefixes());
                if (trackedNow != null) {
                    added.removeAll(trackedNow.prefixes());
                }
                connection.sync().clientTracking(trackingArgs(added.isEmpty() ? KeyPrefixes.EVERY_KEY : KeyPrefixes.of(added)));
            }
            // Tracked from the acknowledgement on: reads sent after it are covered, and the tier kept nothing before.
            subscription.flush();
            synchronized (lock) {
                requireCurrent(connection);
                tracked = wanted;
                subscription.trackedIn = session;
            }
        }
        catch (RuntimeException ex) {
            lose(connection, "tracking " + subscription.prefixes + " failed: " + ex);
        }
    }

    /**
     * Invalidations may have been lost on this connection: stop serving, flush every subscriber,
     * and reconnect. Ignored for a connection that is no longer the current one, or already lost.
     */
    void lose(StatefulRedisConnection<String, String> connection, String reason) {
        synchronized (lock) {
            if (connection != current || currentLost) {
                return;
            }
            currentLost = true;
            up = false;
        }
        for (TrackedSubscription subscription : subscriptions) {
            subscription.flush();
        }
        if (!closed && KeyspaceMarker.FLUSHED.equals(reason)) {
            logger.info("A flush on {} took the near caches' marker key with it; tracking starts a new session", description);
        }
        else if (!closed) {
            logger.warn("Invalidations from {} may have been lost ({}); near caches read from the server until tracking is"
                    + " back", description, reason);
        }
        if (connection.isOpen()) {
            connection.closeAsync();
        }
        scheduleReconnect();
    }

    private void scheduleReconnect() {
        long delay;
        synchronized (lock) {
            if (closed || reconnectScheduled) {
                return;
            }
            reconnectScheduled = true;
            delay = reconnectDelayNanos;
            reconnectDelayNanos = Math.min(reconnectDelayNanos * 2, maxReconnectDelayNanos);
        }
        try {
            scheduler.schedule(this::establish, delay, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException ex) {
            // Closing.
        }
    }

    /** Runs on the connection's I/O thread, in the order the server sent the messages. */
    private void onPush(PushMessage message) {
        if (!"invalidate".equals(message.getType())) {
            return;
        }
        List<Object> content = message.getContent(StringCodec.UTF8::decodeKey);
        Object keys = content.size() > 1 ? content.get(1) : null;
        if (keys instanceof List<?> list) {
            for (Object key : list) {
                String decoded = key instanceof ByteBuffer buffer ? StringCodec.UTF8.decodeKey(buffer) : String.valueOf(key);
                for (TrackedSubscription subscription : subscriptions) {
                    subscription.invalidate(decoded);
                }
            }
        }
        else {
            // A null key list: the server flushed a database (FLUSHALL, FLUSHDB) and every key is gone.
            flushReportedIn = session;
            for (TrackedSubscription subscription : subscriptions) {
                subscription.flush();
            }
        }
    }
}
