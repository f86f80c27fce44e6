package io.adaptivecache.redis;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.adaptivecache.near.InvalidationListener;
import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.near.InvalidationSubscription;
import io.adaptivecache.near.KeyPrefixes;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
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
 * <p><b>Threads.</b> Connecting, tracking and heartbeats run on one daemon thread
 * ({@code adaptive-cache-invalidations-<name>}); invalidations and losses are handled on the
 * connection's I/O thread as they arrive. State changes take {@link #lock}; the read path reads
 * volatile fields only.
 */
final class TrackingInvalidationSource implements InvalidationSource {

    private static final Logger logger = LoggerFactory.getLogger(TrackingInvalidationSource.class);

    private static final long FIRST_RECONNECT_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** The answer to a time-to-live question while no session is live; without a stack trace, as it is not a fault. */
    private static final IllegalStateException NOT_TRACKING = new IllegalStateException("not tracking") {
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    /** Whether a refused PTTL was logged; once is enough. */
    private volatile boolean ttlRefusalReported;

    private final String name;
    private final RedisClient client;
    private final RedisURI uri;
    private final Runnable shutdown;
    private final Duration heartbeatTimeout;
    private final long maxSilenceNanos;
    private final long maxReconnectDelayNanos;
    private final long setupWaitNanos;
    private final ScheduledExecutorService scheduler;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private final String description;

    private final Object lock = new Object();
    /** The connection of the current or coming session; written under {@link #lock}, read without it by {@link #remainingTimeToLive}. */
    private volatile StatefulRedisConnection<String, String> current;
    /** Whether {@link #current} was lost (closed, or a heartbeat went unanswered); guarded by {@link #lock}. */
    private boolean currentLost;
    /** The prefixes the server tracks on {@link #current}, or {@code null} before it acknowledged any. */
    private KeyPrefixes tracked;
    private long reconnectDelayNanos = FIRST_RECONNECT_DELAY_NANOS;
    private boolean reconnectScheduled;
    /** Whether a failed attempt was logged at WARN since the last session; only {@link #establish()} touches it. */
    private boolean failureReported;

    private volatile boolean up;
    private volatile long session;
    /** When the last answered heartbeat (or the session's first PING) was sent, by {@link System#nanoTime()}. */
    private final AtomicLong lastProvenNanos = new AtomicLong();
    private volatile boolean closed;

    private final AtomicLong sessions = new AtomicLong();

    TrackingInvalidationSource(String name, RedisClient client, RedisURI uri, Runnable shutdown, Duration heartbeatInterval,
            Duration heartbeatTimeout, Duration maxReconnectDelay, Duration setupWait) {
        this.name = name;
        this.setupWaitNanos = setupWait.toNanos();
        this.client = client;
        this.uri = uri;
        this.shutdown = shutdown;
        this.heartbeatTimeout = heartbeatTimeout;
        this.maxSilenceNanos = heartbeatInterval.plus(heartbeatTimeout).toNanos();
        this.maxReconnectDelayNanos = maxReconnectDelay.toNanos();
        this.description = "redis " + uri.getHost() + ":" + uri.getPort() + " (CLIENT TRACKING BCAST)";
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "adaptive-cache-invalidations-" + name);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        this.scheduler = executor;
        long interval = heartbeatInterval.toNanos();
        scheduler.scheduleWithFixedDelay(this::heartbeat, interval, interval, TimeUnit.NANOSECONDS);
    }

    /** Makes the first attempt to connect, waiting for it; a failed attempt is retried in the background. */
    void start() {
        await(scheduler.submit(this::establish));
    }

    private void await(java.util.concurrent.Future<?> setup) {
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
        if (closed) {
            throw new IllegalStateException("The invalidation source " + description + " is closed");
        }
        Subscription subscription = new Subscription(KeyPrefixes.of(keyPrefixes), listener);
        subscriptions.add(subscription);
        // Waits (briefly) for the server to track the prefixes, so that a near cache built on a live source serves at once.
        await(scheduler.submit(() -> track(subscription)));
        return subscription;
    }

    @Override
    public Duration stalenessBound() {
        return Duration.ofNanos(maxSilenceNanos);
    }

    @Override
    public boolean isTracking() {
        return up && fresh();
    }

    private boolean fresh() {
        return System.nanoTime() - lastProvenNanos.get() < maxSilenceNanos;
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
        StatefulRedisConnection<String, String> connection = current;
        if (!up || connection == null) {
            return CompletableFuture.failedFuture(NOT_TRACKING);
        }
        try {
            // Lettuce's command timeout (the connect timeout) bounds the wait for the answer.
            CompletableFuture<Long> answer = connection.async().pttl(key).toCompletableFuture();
            if (!ttlRefusalReported) {
                answer.whenComplete((millis, failure) -> reportTtlRefusal(failure));
            }
            return answer;
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /** A server that refuses PTTL (an ACL without it) leaves every copy unkept: said once, as it is a setup mistake. */
    private void reportTtlRefusal(@Nullable Throwable failure) {
        if (failure instanceof RedisCommandExecutionException && !ttlRefusalReported) {
            ttlRefusalReported = true;
            logger.warn("{} refuses PTTL ({}); near caches cannot cap their copies at their keys' expiry, so they keep none and"
                    + " read every key from the server", description, failure.getMessage());
        }
    }

    // ---- the session

    /** Opens a connection, turns tracking on for every subscription's prefixes, flushes them, and serves. */
    private void establish() {
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
            List<Subscription> subscribed = new ArrayList<>(subscriptions);
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
            long sentAt = System.nanoTime();
            connection.sync().ping();
            synchronized (lock) {
                requireCurrent(connection);
                tracked = wanted;
            }
            // Whatever was kept before now may have missed an invalidation: go before serving.
            for (Subscription subscription : subscribed) {
                subscription.flush();
            }
            synchronized (lock) {
                requireCurrent(connection);
                long next = session + 1;
                for (Subscription subscription : subscribed) {
                    if (wanted != null && wanted.covers(subscription.prefixes)) {
                        subscription.trackedIn = next;
                    }
                }
                lastProvenNanos.accumulateAndGet(sentAt, Math::max);
                session = next;
                up = true;
                reconnectDelayNanos = FIRST_RECONNECT_DELAY_NANOS;
            }
            failureReported = false;
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

    /** Adds a new subscription's prefixes to the live session, or leaves it to the next session. */
    private void track(Subscription subscription) {
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
    private void lose(StatefulRedisConnection<String, String> connection, String reason) {
        synchronized (lock) {
            if (connection != current || currentLost) {
                return;
            }
            currentLost = true;
            up = false;
        }
        for (Subscription subscription : subscriptions) {
            subscription.flush();
        }
        if (!closed) {
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
        catch (java.util.concurrent.RejectedExecutionException ex) {
            // Closing.
        }
    }

    /**
     * Sends a PING on the live connection: its answer proves that every invalidation the server
     * sent before it has been handled (one connection, in order), so serving may go on until the
     * staleness bound after it was sent. No answer within the heartbeat timeout loses the session.
     */
    private void heartbeat() {
        try {
            sendHeartbeat();
        }
        catch (RuntimeException ex) {
            // Never let the periodic task die: without heartbeats the near caches would stop serving for good.
            logger.debug("Heartbeat on {} failed: {}", description, ex.toString());
        }
    }

    private void sendHeartbeat() {
        StatefulRedisConnection<String, String> connection;
        synchronized (lock) {
            connection = up && !currentLost ? current : null;
        }
        if (connection == null) {
            return;
        }
        long sentAt = System.nanoTime();
        try {
            connection.async().ping().toCompletableFuture().orTimeout(heartbeatTimeout.toNanos(), TimeUnit.NANOSECONDS)
                    .whenComplete((pong, failure) -> {
                        if (failure == null) {
                            synchronized (lock) {
                                if (connection == current && !currentLost) {
                                    lastProvenNanos.accumulateAndGet(sentAt, Math::max);
                                }
                            }
                        }
                        else {
                            lose(connection, "no heartbeat answer within " + heartbeatTimeout.toMillis() + " ms: " + failure);
                        }
                    });
        }
        catch (RuntimeException ex) {
            lose(connection, "the heartbeat could not be sent: " + ex);
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
                for (Subscription subscription : subscriptions) {
                    subscription.invalidate(decoded);
                }
            }
        }
        else {
            // A null key list: the server flushed a database (FLUSHALL, FLUSHDB) and every key is gone.
            for (Subscription subscription : subscriptions) {
                subscription.flush();
            }
        }
    }

    @Override
    public void close() {
        StatefulRedisConnection<String, String> connection;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            up = false;
            connection = current;
            current = null;
        }
        for (Subscription subscription : subscriptions) {
            subscription.close();
        }
        scheduler.shutdownNow();
        try {
            if (connection != null) {
                connection.close();
            }
        }
        finally {
            shutdown.run();
        }
    }

    @Override
    public String toString() {
        return "InvalidationSource[" + name + ", " + description + (up ? ", tracking" : ", not tracking") + "]";
    }

    /** One local tier's subscription. */
    private final class Subscription implements InvalidationSubscription {

        final KeyPrefixes prefixes;
        private final InvalidationListener listener;
        /** The session in which the server tracks these prefixes; -1 for none yet (sessions count from 1). */
        volatile long trackedIn = -1;
        volatile boolean open = true;

        Subscription(KeyPrefixes prefixes, InvalidationListener listener) {
            this.prefixes = prefixes;
            this.listener = listener;
        }

        @Override
        public boolean isServing() {
            return open && up && trackedIn == session && fresh();
        }

        void invalidate(String key) {
            if (!open || !prefixes.covers(key)) {
                return;
            }
            try {
                listener.invalidate(key);
            }
            catch (RuntimeException ex) {
                // A copy that cannot be dropped must not be served: drop them all.
                flush();
            }
        }

        void flush() {
            listener.invalidateAll();
        }

        @Override
        public void close() {
            open = false;
            subscriptions.remove(this);
        }
    }
}
