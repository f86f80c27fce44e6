package io.adaptivecache.redis.tracking;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.near.InvalidationListener;
import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.near.InvalidationSubscription;
import io.adaptivecache.near.KeyPrefixes;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;

/**
 * The Redis {@link InvalidationSource}: one dedicated RESP3 connection on which the server
 * broadcasts invalidations of the subscribed prefixes ({@code CLIENT TRACKING on BCAST PREFIX ...}).
 *
 * <p><b>State.</b> A session is one connection with tracking on for a set of prefixes, proven
 * by an answered {@code PING}. Subscriptions serve while their prefixes are tracked in the
 * current session and the last answered heartbeat was sent less than the staleness bound ago.
 * When the connection closes or a heartbeat goes unanswered, the source stops serving at once,
 * flushes every subscriber and reconnects on a connection of its own making: Lettuce's own
 * reconnect would restore the connection but not {@code CLIENT TRACKING}, leaving a connection
 * that looks healthy and carries no invalidations. A new session flushes every subscriber again
 * after the server has acknowledged tracking and before it serves.
 *
 * <p><b>The marker.</b> Redis reports writes, deletions and flushes to tracking clients, but not
 * everything that changes the keyspace under a connection: {@code SWAPDB} is never reported, a
 * failover behind a DNS name or virtual IP can put a healthy connection on a server that never
 * saw this session, and a flush's report can be lost with its connection. So each session writes
 * a marker key ({@value KeyspaceMarker#MARKER_KEY_PREFIX}{@code <name>:<uuid>}) holding a random
 * token of its own, after tracking is acknowledged and before it serves, and every heartbeat reads
 * it back on the tracking connection with its {@code PING}: a marker that is gone or holds another
 * token means the keyspace changed without a report, and the session is lost (flush, reconnect,
 * new marker). The same marker proves that a near cache's template reads the keyspace the source
 * tracks ({@link #subscribe(Collection, InvalidationListener, CacheTemplate)}).
 *
 * <p><b>Parts.</b> This class wires them and answers the {@link InvalidationSource} calls; each
 * part is one responsibility, so that the rules that keep a near cache from serving a stale value
 * can be read one at a time: {@link TrackingConnection} (the connection, its sessions, losses and
 * reconnects, and the state they share), {@link KeyspaceMarker} (the marker key),
 * {@link Heartbeat} (the periodic proof), {@link DataPathChecks} (the templates' reads of the
 * marker), {@link ServerTimeToLive} ({@code PTTL} questions) and {@link TrackedSubscription}.
 *
 * <p><b>Threads.</b> Connecting, tracking and heartbeats run on one daemon thread
 * ({@code adaptive-cache-invalidations-<name>}); invalidations and losses are handled on the
 * connection's I/O thread as they arrive. State changes take {@link TrackingConnection#lock}; the
 * read path reads volatile fields only.
 */
final class TrackingInvalidationSource implements InvalidationSource {

    private final String name;
    private final Runnable shutdown;
    /** Kept (rather than only scheduled) so that a test can read back the interval the source runs on. */
    private final Duration heartbeatInterval;
    /** Kept here too (the parts have their copies) so that a test can read it back beside the interval. */
    private final Duration heartbeatTimeout;
    private final long maxSilenceNanos;
    private final long setupWaitNanos;
    private final ScheduledExecutorService scheduler;
    private final List<TrackedSubscription> subscriptions = new CopyOnWriteArrayList<>();
    private final String description;
    private final KeyspaceMarker marker;
    private final TrackingConnection tracking;
    private final DataPathChecks dataPaths;
    private final ServerTimeToLive timeToLive;

    TrackingInvalidationSource(String name, RedisClient client, RedisURI uri, Runnable shutdown, Duration heartbeatInterval,
            Duration heartbeatTimeout, Duration maxReconnectDelay, Duration setupWait) {
        this.name = name;
        this.setupWaitNanos = setupWait.toNanos();
        this.shutdown = shutdown;
        this.heartbeatInterval = heartbeatInterval;
        this.heartbeatTimeout = heartbeatTimeout;
        this.maxSilenceNanos = heartbeatInterval.plus(heartbeatTimeout).toNanos();
        this.description = "redis " + uri.getHost() + ":" + uri.getPort() + "/" + uri.getDatabase() + " (CLIENT TRACKING BCAST)";
        this.marker = new KeyspaceMarker(name, this.description);
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "adaptive-cache-invalidations-" + name);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        this.scheduler = executor;
        this.tracking = new TrackingConnection(client, uri, this.description, this.maxSilenceNanos, maxReconnectDelay.toNanos(),
                executor, this.subscriptions, this.marker, this::sessionStarted);
        this.dataPaths = new DataPathChecks(name, this.tracking, this.marker, this.description, heartbeatTimeout,
                this.maxSilenceNanos);
        this.timeToLive = new ServerTimeToLive(this.tracking, this.description);
        long interval = this.heartbeatInterval.toNanos();
        scheduler.scheduleWithFixedDelay(new Heartbeat(this.tracking, this.marker, this.dataPaths, this.subscriptions,
                heartbeatTimeout, this.description), interval, interval, TimeUnit.NANOSECONDS);
    }

    /** Makes the first attempt to connect, waiting for it; a failed attempt is retried in the background. */
    void start() {
        await(scheduler.submit(tracking::establish));
    }

    /** A new session serves: the templates of its subscriptions are to read its marker (a round trip from now). */
    private void sessionStarted(List<TrackedSubscription> subscribed) {
        dataPaths.check(subscribed);
    }

    private void await(Future<?> setup) {
        try {
            setup.get(setupWaitNanos, TimeUnit.NANOSECONDS);
        }
        catch (ExecutionException | TimeoutException ex) {
            // establish() and track() report and retry their own failures; the caller need not wait for them.
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public InvalidationSubscription subscribe(Collection<String> keyPrefixes, InvalidationListener listener) {
        return subscribe(keyPrefixes, listener, null);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here the data path reads this source's marker key ({@code MGET}, once per heartbeat for
     * all subscriptions over one template, never on a caller's read): the subscription serves
     * once a read found the current session's token, and stops (flushing its listener) when a
     * read finds something else, fails or goes unanswered (for the staleness bound, at least 1 s),
     * until a later read finds the token again.
     */
    @Override
    public InvalidationSubscription subscribe(Collection<String> keyPrefixes, InvalidationListener listener,
            @Nullable CacheTemplate dataPath) {
        if (tracking.isClosed()) {
            throw new IllegalStateException("The invalidation source " + description + " is closed");
        }
        TrackedSubscription subscription = new TrackedSubscription(KeyPrefixes.of(keyPrefixes), listener, dataPath, tracking,
                subscriptions);
        subscriptions.add(subscription);
        // Waits (briefly) for the server to track the prefixes, so that a near cache built on a live source serves at once.
        await(scheduler.submit(() -> tracking.track(subscription)));
        if (dataPath != null) {
            // And for its template to read the marker, for the same reason.
            await(dataPaths.check(List.of(subscription)));
        }
        return subscription;
    }

    @Override
    public Duration stalenessBound() {
        return Duration.ofNanos(maxSilenceNanos);
    }

    @Override
    public boolean isTracking() {
        return tracking.isUp() && tracking.fresh();
    }

    @Override
    public String describe() {
        return description;
    }

    /**
     * Sends {@code PTTL} on this source's own connection, which reaches the server the near caches'
     * templates read from. Nothing waits for it here: the near cache keeps a copy when the answer
     * has come. No live connection: a failed future, and the near cache keeps nothing (it does not
     * serve then either).
     */
    @Override
    public CompletableFuture<Long> remainingTimeToLive(String key) {
        return timeToLive.ask(key);
    }

    @Override
    public void close() {
        StatefulRedisConnection<String, String> connection;
        synchronized (tracking.lock) {
            if (tracking.isClosed()) {
                return;
            }
            connection = tracking.closeLocked();
        }
        for (TrackedSubscription subscription : subscriptions) {
            subscription.close();
        }
        scheduler.shutdownNow();
        dataPaths.close();
        try {
            if (connection != null) {
                marker.delete(connection, heartbeatTimeout);
                connection.close();
            }
        }
        finally {
            shutdown.run();
        }
    }

    @Override
    public String toString() {
        return "InvalidationSource[" + name + ", " + description + (tracking.isUp() ? ", tracking" : ", not tracking") + "]";
    }
}
