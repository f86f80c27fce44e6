package io.adaptivecache.redis.tracking;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.CacheTemplate;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.near.InvalidationListener;
import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.near.InvalidationSubscription;
import io.adaptivecache.near.KeyPrefixes;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
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
 * <p><b>The marker.</b> Redis reports writes, deletions and flushes to tracking clients, but not
 * everything that changes the keyspace under a connection: {@code SWAPDB} is never reported, a
 * failover behind a DNS name or virtual IP can put a healthy connection on a server that never
 * saw this session, and a flush's report can be lost with its connection. So each session writes
 * a marker key ({@value #MARKER_KEY_PREFIX}{@code <name>:<uuid>}) holding a random token of its
 * own, after tracking is acknowledged and before it serves, and every heartbeat reads it back on
 * the tracking connection with its {@code PING}: a marker that is gone or holds another token
 * means the keyspace changed without a report, and the session is lost (flush, reconnect, new
 * marker). The same marker proves that a near cache's template reads the keyspace the source
 * tracks ({@link #subscribe(Collection, InvalidationListener, CacheTemplate)}).
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

    /** Where the markers live: outside the prefixes near caches usually cache, so that their writes report nothing. */
    static final String MARKER_KEY_PREFIX = "adaptive-cache:near-marker:";

    /** How long a marker lives unless refreshed: long, so that a source that died leaves it only for a while. */
    static final long MARKER_TTL_MILLIS = TimeUnit.MINUTES.toMillis(10);

    /** How often a live session extends its marker's time to live: a tenth of it, so that missed refreshes do no harm. */
    private static final long MARKER_REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(MARKER_TTL_MILLIS / 10);

    /** The reason of a loss that is none: a reported flush removed the marker. */
    private static final String FLUSHED = "a reported flush removed the marker";

    /** The shortest wait for a template's read of the marker: a template under load answers slower than the source's own connection. */
    private static final long MIN_CHECK_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String name;
    private final RedisClient client;
    private final RedisURI uri;
    private final Runnable shutdown;
    /** Kept (rather than only scheduled) so that a test can read back the interval the source runs on. */
    private final Duration heartbeatInterval;
    private final Duration heartbeatTimeout;
    private final long maxSilenceNanos;
    private final long maxReconnectDelayNanos;
    private final long setupWaitNanos;
    private final ScheduledExecutorService scheduler;
    /** Runs the templates' synchronous reads of the marker, so that they never hold up a heartbeat. */
    private final ExecutorService checks;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private final String description;
    /** This source's marker key: one per source, so that sources of the same name on one server do not meet. */
    private final String markerKey;
    private final long checkTimeoutNanos;

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
    /** When the marker's time to live was last set, by {@link System#nanoTime()}; only the scheduler's thread touches it. */
    private long markerSetNanos;
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

    TrackingInvalidationSource(String name, RedisClient client, RedisURI uri, Runnable shutdown, Duration heartbeatInterval,
            Duration heartbeatTimeout, Duration maxReconnectDelay, Duration setupWait) {
        this.name = name;
        this.setupWaitNanos = setupWait.toNanos();
        this.client = client;
        this.uri = uri;
        this.shutdown = shutdown;
        this.heartbeatInterval = heartbeatInterval;
        this.heartbeatTimeout = heartbeatTimeout;
        this.maxSilenceNanos = heartbeatInterval.plus(heartbeatTimeout).toNanos();
        this.maxReconnectDelayNanos = maxReconnectDelay.toNanos();
        this.description = "redis " + uri.getHost() + ":" + uri.getPort() + "/" + uri.getDatabase() + " (CLIENT TRACKING BCAST)";
        this.markerKey = MARKER_KEY_PREFIX + name + ":" + UUID.randomUUID();
        this.checkTimeoutNanos = Math.max(this.maxSilenceNanos, MIN_CHECK_TIMEOUT_NANOS);
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "adaptive-cache-invalidations-" + name);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        this.scheduler = executor;
        this.checks = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "adaptive-cache-marker-checks-" + name);
            thread.setDaemon(true);
            return thread;
        });
        long interval = this.heartbeatInterval.toNanos();
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
        if (closed) {
            throw new IllegalStateException("The invalidation source " + description + " is closed");
        }
        Subscription subscription = new Subscription(KeyPrefixes.of(keyPrefixes), listener, dataPath);
        subscriptions.add(subscription);
        // Waits (briefly) for the server to track the prefixes, so that a near cache built on a live source serves at once.
        await(scheduler.submit(() -> track(subscription)));
        if (dataPath != null) {
            // And for its template to read the marker, for the same reason.
            await(checkDataPaths(List.of(subscription)));
        }
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
            // The keyspace this session tracks, marked before anything is served (see the class comment).
            String token = UUID.randomUUID().toString();
            connection.sync().set(markerKey, token, SetArgs.Builder.px(MARKER_TTL_MILLIS));
            markerSetNanos = System.nanoTime();
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
                markerToken = token;
                session = next;
                up = true;
                reconnectDelayNanos = FIRST_RECONNECT_DELAY_NANOS;
            }
            failureReported = false;
            // Subscriptions over a template serve once it has read the new marker: a round trip from now.
            checkDataPaths(subscribed);
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
        if (!closed && FLUSHED.equals(reason)) {
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
        catch (java.util.concurrent.RejectedExecutionException ex) {
            // Closing.
        }
    }

    /**
     * Sends a PING on the live connection: its answer proves that every invalidation the server
     * sent before it has been handled (one connection, in order), so serving may go on until the
     * staleness bound after it was sent. No answer within the heartbeat timeout loses the session,
     * and so does a marker that the {@code MGET} sent just before the PING did not find with this
     * session's token. Then the templates of the subscriptions read the marker too.
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
        String token;
        synchronized (lock) {
            connection = up && !currentLost ? current : null;
            token = markerToken;
        }
        if (connection == null) {
            return;
        }
        long sentAt = System.nanoTime();
        try {
            RedisAsyncCommands<String, String> commands = connection.async();
            if (sentAt - markerSetNanos > MARKER_REFRESH_NANOS) {
                // Extends the marker without writing it: a marker that is gone must stay gone for the MGET to see.
                commands.pexpire(markerKey, MARKER_TTL_MILLIS);
                markerSetNanos = sentAt;
            }
            // MGET rather than GET: the servers' GET counts stay the callers' (tests and dashboards read them).
            CompletableFuture<List<KeyValue<String, String>>> marker = commands.mget(markerKey).toCompletableFuture();
            marker.thenCombine(commands.ping().toCompletableFuture(), (values, pong) -> values)
                    .orTimeout(heartbeatTimeout.toNanos(), TimeUnit.NANOSECONDS)
                    .whenComplete((values, failure) -> {
                        if (failure != null) {
                            lose(connection, "no heartbeat answer within " + heartbeatTimeout.toMillis() + " ms: " + failure);
                        }
                        else if (!token.equals(markerValue(values))) {
                            lose(connection, markerLost(markerValue(values)));
                        }
                        else {
                            synchronized (lock) {
                                if (connection == current && !currentLost) {
                                    lastProvenNanos.accumulateAndGet(sentAt, Math::max);
                                }
                            }
                        }
                    });
        }
        catch (RuntimeException ex) {
            lose(connection, "the heartbeat could not be sent: " + ex);
        }
        checkDataPaths(subscriptions);
    }

    private static @Nullable String markerValue(@Nullable List<KeyValue<String, String>> values) {
        return values == null || values.isEmpty() || !values.get(0).hasValue() ? null : values.get(0).getValue();
    }

    private @Nullable String markerRead(@Nullable Map<String, byte[]> values) {
        byte[] raw = values == null ? null : values.get(markerKey);
        return raw == null ? null : new String(raw, StandardCharsets.UTF_8);
    }

    private String markerLost(@Nullable String found) {
        if (found == null && flushReportedIn == session) {
            // Nothing was lost (the flush was reported and handled): the session only needs a new marker.
            return FLUSHED;
        }
        return "the marker key " + markerKey + (found == null ? " is gone" : " holds another session's token")
                + ": the keyspace under the connection changed without a report (SWAPDB, a failover or restart that lost"
                + " it, a flush whose report was lost, or an eviction)";
    }

    // ---- the templates' side of the marker

    /**
     * Reads the marker through the data path of each given subscription of the live session,
     * once per template, and lets the subscriptions serve if it holds the session's token, until
     * a read finds something else, fails or goes unanswered for {@link #checkTimeoutNanos}. The
     * proof is not a lease that runs out with the staleness bound, as a heartbeat's is: a
     * template whose round trip is longer than the bound (under load, behind a slow link) would
     * then never serve, where it only answers later. Reads both ways, {@code getAllAsync} and
     * {@code getAll} (on {@link #checks}), since a template may route them differently; both must
     * find the token. Never blocks the caller, and a template whose last read has not answered
     * yet is skipped.
     * @return completes when every read sent here has been handled
     */
    private CompletableFuture<Void> checkDataPaths(List<Subscription> which) {
        StatefulRedisConnection<String, String> connection;
        long checked;
        String token;
        Map<CacheTemplate, List<Subscription>> byTemplate = new IdentityHashMap<>();
        synchronized (lock) {
            if (!up || currentLost) {
                return CompletableFuture.completedFuture(null);
            }
            connection = current;
            checked = session;
            token = markerToken;
            for (Subscription subscription : which) {
                CacheTemplate template = subscription.dataPath;
                if (template != null && subscription.open && subscription.trackedIn == checked && !subscription.checking) {
                    subscription.checking = true;
                    byTemplate.computeIfAbsent(template, any -> new ArrayList<>()).add(subscription);
                }
            }
        }
        if (byTemplate.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<?>> reads = new ArrayList<>(byTemplate.size());
        List<String> keys = List.of(markerKey);
        byTemplate.forEach((template, group) -> {
            // getAll, an MGET: like the heartbeat's, it leaves the server's GET count to the callers. Both forms, since
            // a template may send them on different connections (POOLED on Jedis sends the synchronous ones through Jedis).
            CompletableFuture<Map<String, byte[]>> async;
            CompletableFuture<Map<String, byte[]>> sync;
            try {
                async = template.getAllAsync(keys).toCompletableFuture();
            }
            catch (RuntimeException ex) {
                async = CompletableFuture.failedFuture(ex);
            }
            try {
                sync = CompletableFuture.supplyAsync(() -> template.getAll(keys), checks);
            }
            catch (RuntimeException ex) {
                sync = CompletableFuture.failedFuture(ex); // closing
            }
            // The read that did not find the token, if either did not: that is the one to judge by.
            CompletableFuture<Map<String, byte[]>> read = async.thenCombine(sync,
                    (viaAsync, viaSync) -> token.equals(markerRead(viaAsync)) ? viaSync : viaAsync);
            reads.add(read.orTimeout(checkTimeoutNanos, TimeUnit.NANOSECONDS).handle((values, failure) -> {
                checked(connection, checked, token, template, group, values, failure);
                return null;
            }));
        });
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
    }

    /** Handles a template's read of the marker, on whichever thread completed it. */
    private void checked(StatefulRedisConnection<String, String> connection, long checked, String token, CacheTemplate template, List<Subscription> group, @Nullable Map<String, byte[]> values, @Nullable Throwable failure) {
        String found = markerRead(values);
        boolean same = failure == null && token.equals(found);
        synchronized (lock) {
            for (Subscription subscription : group) {
                subscription.checking = false;
            }
            if (session != checked) {
                // A newer session: it flushed every subscriber and needs a read of its own marker.
                return;
            }
            for (Subscription subscription : group) {
                subscription.verifiedIn = same ? checked : -1;
            }
        }
        if (same) {
            if (group.get(0).divergenceReported) {
                group.forEach(subscription -> subscription.divergenceReported = false);
                logger.info("The template '{}' reads the keyspace {} tracks again; its near caches serve locally again",
                        template.name(), description);
            }
            return;
        }
        // Not proven the same keyspace: what was kept may be another server's, or stale here.
        for (Subscription subscription : group) {
            subscription.flush();
        }
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof InvalidCacheInputException && !group.get(0).divergenceReported) {
                // Not a passing failure: this template will never read the marker, so its near caches will never serve.
                group.forEach(subscription -> subscription.divergenceReported = true);
                logger.warn("The template '{}' refuses the near caches' marker key {} ({}), so they cannot prove that it reads"
                        + " the keyspace {} tracks and read from the server instead of serving locally; allow the key (its"
                        + " maximum key size, at least {} bytes)", template.name(), markerKey, cause.getMessage(), description,
                        markerKey.length());
                return;
            }
            logger.debug("The template '{}' could not read the marker key {}: {}; its near caches read from the server until"
                    + " it can", template.name(), markerKey, failure.toString());
            return;
        }
        // The source's own connection tells whether the keyspace changed under both (a lost session) or only under the template.
        try {
            connection.async().mget(markerKey).toCompletableFuture().orTimeout(heartbeatTimeout.toNanos(), TimeUnit.NANOSECONDS)
                    .whenComplete((own, ownFailure) -> {
                        if (ownFailure != null) {
                            lose(connection, "no answer to a read of the marker within " + heartbeatTimeout.toMillis() + " ms: "
                                    + ownFailure);
                        }
                        else if (!token.equals(markerValue(own))) {
                            lose(connection, markerLost(markerValue(own)));
                        }
                        else if (!group.get(0).divergenceReported) {
                            group.forEach(subscription -> subscription.divergenceReported = true);
                            logger.warn("The template '{}' does not read the keyspace whose invalidations {} receives: the marker"
                                    + " key {} that the source wrote there {} through the template. Its connections reach another"
                                    + " server or database (a template of its own on another server, or a failover behind a DNS"
                                    + " name or virtual IP that moved only some connections), so its near caches read from the"
                                    + " server until the template reads the marker again (checked every heartbeat)",
                                    template.name(), description, markerKey, found != null ? "holds another value"
                                            : degrades(template) ? "is missing (or its read failed: a DEGRADE template answers a"
                                                    + " failed read as a miss)" : "is missing");
                        }
                    });
        }
        catch (RuntimeException ex) {
            lose(connection, "a read of the marker could not be sent: " + ex);
        }
    }

    private static boolean degrades(CacheTemplate template) {
        return template instanceof ManagedCacheTemplate managed && managed.failureMode() == CacheFailureMode.DEGRADE;
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
            flushReportedIn = session;
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
        checks.shutdownNow();
        try {
            if (connection != null) {
                deleteMarker(connection);
                connection.close();
            }
        }
        finally {
            shutdown.run();
        }
    }

    /** Deletes the marker rather than leave it to expire, waiting at most the heartbeat timeout: closing does not depend on it. */
    private void deleteMarker(StatefulRedisConnection<String, String> connection) {
        if (!connection.isOpen()) {
            return;
        }
        try {
            connection.async().del(markerKey).toCompletableFuture().get(heartbeatTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (ExecutionException | TimeoutException | RuntimeException ex) {
            logger.debug("Could not delete the marker key {} on {}: {}", markerKey, description, ex.toString());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
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
        /** The template whose reads the listener keeps, or {@code null} if no template is to be checked. */
        final @Nullable CacheTemplate dataPath;
        /** The session in which the server tracks these prefixes; -1 for none yet (sessions count from 1). */
        volatile long trackedIn = -1;
        /** The session whose marker {@link #dataPath} read last; -1 if its last read found something else or failed. */
        volatile long verifiedIn = -1;
        /** Whether a read of the marker through {@link #dataPath} is on its way; guarded by {@link #lock}. */
        boolean checking;
        /** Whether the template's divergence was logged since it last read the marker; guarded by the checks' order. */
        volatile boolean divergenceReported;
        volatile boolean open = true;

        Subscription(KeyPrefixes prefixes, InvalidationListener listener, @Nullable CacheTemplate dataPath) {
            this.prefixes = prefixes;
            this.listener = listener;
            this.dataPath = dataPath;
        }

        @Override
        public boolean isServing() {
            long current = session;
            return open && up && trackedIn == current && (dataPath == null || verifiedIn == current) && fresh();
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
