package io.adaptivecache.redis.tracking;

import java.util.List;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.near.InvalidationListener;
import io.adaptivecache.near.InvalidationSubscription;
import io.adaptivecache.near.KeyPrefixes;
import org.jspecify.annotations.Nullable;

/**
 * One local tier's subscription to a {@link TrackingInvalidationSource}. It serves while its
 * prefixes are tracked in the current session, its template (if any) has read the session's
 * marker, and the last answered heartbeat is recent: the session's state lives in
 * {@link TrackingConnection}, this class only records which session proved what for this
 * subscription.
 */
final class TrackedSubscription implements InvalidationSubscription {

    final KeyPrefixes prefixes;
    private final InvalidationListener listener;
    /** The template whose reads the listener keeps, or {@code null} if no template is to be checked. */
    final @Nullable CacheTemplate dataPath;
    private final TrackingConnection tracking;
    /** The source's subscriptions, which this one leaves when closed. */
    private final List<TrackedSubscription> subscriptions;
    /** The session in which the server tracks these prefixes; -1 for none yet (sessions count from 1). */
    volatile long trackedIn = -1;
    /** The session whose marker {@link #dataPath} read last; -1 if its last read found something else or failed. */
    volatile long verifiedIn = -1;
    /** Whether a read of the marker through {@link #dataPath} is on its way; guarded by {@link TrackingConnection#lock}. */
    boolean checking;
    /** Whether the template's divergence was logged since it last read the marker; guarded by the checks' order. */
    volatile boolean divergenceReported;
    volatile boolean open = true;

    TrackedSubscription(KeyPrefixes prefixes, InvalidationListener listener, @Nullable CacheTemplate dataPath,
            TrackingConnection tracking, List<TrackedSubscription> subscriptions) {
        this.prefixes = prefixes;
        this.listener = listener;
        this.dataPath = dataPath;
        this.tracking = tracking;
        this.subscriptions = subscriptions;
    }

    @Override
    public boolean isServing() {
        long current = tracking.session();
        return open && tracking.isUp() && trackedIn == current && (dataPath == null || verifiedIn == current) && tracking.fresh();
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
