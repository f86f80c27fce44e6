package io.adaptivecache.redis.tracking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.CacheTemplate;
import io.adaptivecache.InvalidCacheInputException;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.lettuce.core.api.StatefulRedisConnection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The templates' side of the marker: proves, for each subscription over a template, that the
 * template reads the keyspace the source tracks, by reading the session's {@link KeyspaceMarker}
 * through it. A subscription over a template serves only while such a read found the session's
 * token ({@link TrackedSubscription#verifiedIn}).
 *
 * <p>Apart from the heartbeat because it proves something else (the template's connections, not
 * the tracking connection) on other threads (the templates' and {@link #checks}), and because a
 * template's failure is not the session's: only when the source's own connection finds the marker
 * changed too is the session lost.
 */
final class DataPathChecks {

    private static final Logger logger = LoggerFactory.getLogger(DataPathChecks.class);

    /** The shortest wait for a template's read of the marker: a template under load answers slower than the source's own connection. */
    private static final long MIN_CHECK_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final TrackingConnection tracking;
    private final KeyspaceMarker marker;
    private final String description;
    private final Duration heartbeatTimeout;
    private final long checkTimeoutNanos;
    /** Runs the templates' synchronous reads of the marker, so that they never hold up a heartbeat. */
    private final ExecutorService checks;

    DataPathChecks(String name, TrackingConnection tracking, KeyspaceMarker marker, String description, Duration heartbeatTimeout,
            long maxSilenceNanos) {
        this.tracking = tracking;
        this.marker = marker;
        this.description = description;
        this.heartbeatTimeout = heartbeatTimeout;
        this.checkTimeoutNanos = Math.max(maxSilenceNanos, MIN_CHECK_TIMEOUT_NANOS);
        this.checks = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "adaptive-cache-marker-checks-" + name);
            thread.setDaemon(true);
            return thread;
        });
    }

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
    CompletableFuture<Void> check(List<TrackedSubscription> which) {
        StatefulRedisConnection<String, String> connection;
        long checked;
        String token;
        Map<CacheTemplate, List<TrackedSubscription>> byTemplate = new IdentityHashMap<>();
        synchronized (tracking.lock) {
            if (!tracking.isLive()) {
                return CompletableFuture.completedFuture(null);
            }
            connection = tracking.current();
            checked = tracking.session();
            token = tracking.markerToken();
            for (TrackedSubscription subscription : which) {
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
        List<String> keys = List.of(marker.key());
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
                    (viaAsync, viaSync) -> token.equals(marker.read(viaAsync)) ? viaSync : viaAsync);
            reads.add(read.orTimeout(checkTimeoutNanos, TimeUnit.NANOSECONDS).handle((values, failure) -> {
                checked(connection, checked, token, template, group, values, failure);
                return null;
            }));
        });
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
    }

    /** Handles a template's read of the marker, on whichever thread completed it. */
    private void checked(StatefulRedisConnection<String, String> connection, long checked, String token, CacheTemplate template, List<TrackedSubscription> group, @Nullable Map<String, byte[]> values, @Nullable Throwable failure) {
        String found = marker.read(values);
        boolean same = failure == null && token.equals(found);
        synchronized (tracking.lock) {
            for (TrackedSubscription subscription : group) {
                subscription.checking = false;
            }
            if (tracking.session() != checked) {
                // A newer session: it flushed every subscriber and needs a read of its own marker.
                return;
            }
            for (TrackedSubscription subscription : group) {
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
        for (TrackedSubscription subscription : group) {
            subscription.flush();
        }
        String markerKey = marker.key();
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
                            tracking.lose(connection, "no answer to a read of the marker within " + heartbeatTimeout.toMillis()
                                    + " ms: " + ownFailure);
                        }
                        else if (!token.equals(KeyspaceMarker.value(own))) {
                            tracking.lose(connection, tracking.markerLost(KeyspaceMarker.value(own)));
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
            tracking.lose(connection, "a read of the marker could not be sent: " + ex);
        }
    }

    private static boolean degrades(CacheTemplate template) {
        return template instanceof ManagedCacheTemplate managed && managed.stats().failureMode() == CacheFailureMode.DEGRADE;
    }

    /** Stops the thread of the synchronous reads; reads on their way fail, and nothing serves after closing anyway. */
    void close() {
        checks.shutdownNow();
    }
}
