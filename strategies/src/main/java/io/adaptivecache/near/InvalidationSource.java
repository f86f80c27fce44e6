package io.adaptivecache.near;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import io.adaptivecache.CacheTemplate;
import org.jspecify.annotations.Nullable;

/**
 * Where a near cache learns that keys changed on the server. One source (one connection to one
 * server) serves any number of near caches over templates of that server; it is shared and
 * closed by its owner, not by the caches.
 *
 * <p>The Redis implementation ({@code io.adaptivecache.redis.tracking.RedisInvalidations}) listens on one
 * dedicated RESP3 connection with server-assisted client-side caching in broadcasting mode
 * ({@code CLIENT TRACKING on BCAST PREFIX ...}): the server tells it of every write to a key under
 * the subscribed prefixes, whichever connection, client or application instance made it.
 */
public interface InvalidationSource extends AutoCloseable {

    /**
     * Starts delivering invalidations of keys under some prefixes to a listener. Until the
     * server tracks them, the subscription is not {@linkplain InvalidationSubscription#isServing() serving};
     * the Redis source waits briefly (up to twice its connect timeout) for that when it is connected.
     * @param keyPrefixes the prefixes; empty for every key (the server then reports every write)
     * @param listener told of invalidations
     * @return the subscription
     */
    InvalidationSubscription subscribe(Collection<String> keyPrefixes, InvalidationListener listener);

    /**
     * Subscribes like {@link #subscribe(Collection, InvalidationListener)} for a near cache in
     * front of a template, which the subscription serves only while the template is proven to
     * read the keyspace whose invalidations this source receives. The Redis source proves it with
     * a marker key it writes on its own connection and reads back through the template once per
     * heartbeat; a template on another server or database never serves locally, and one whose
     * connections move elsewhere (a failover behind a DNS name) stops at its next check.
     * This default proves nothing and subscribes without the check.
     * @param keyPrefixes the prefixes; empty for every key
     * @param listener told of invalidations; also flushed when the template is found elsewhere
     * @param dataPath the template the near cache reads from and writes to, or {@code null} for no check
     * @return the subscription
     */
    default InvalidationSubscription subscribe(Collection<String> keyPrefixes, InvalidationListener listener,
            @Nullable CacheTemplate dataPath) {
        return subscribe(keyPrefixes, listener);
    }

    /**
     * The longest a broken invalidation path can go unnoticed: a local tier stops serving if the
     * source has not proven its path healthy for this long (for Redis, the heartbeat interval
     * plus the heartbeat timeout). A read never returns a value older than a write that completed
     * more than this before the read started.
     * @return the bound
     */
    Duration stalenessBound();

    /**
     * Asks the server how long a key has left to live, so that a near cache keeps its copy of the
     * key no longer than the server keeps the key: the server reports an expiry only when it
     * deletes the key, which it may do long after the key expired. The question is sent at once,
     * to the same server as the near cache's reads, before the read it goes with; the near cache
     * counts the answer from before it asked, which is never later than the server's expiry. The
     * answer must come no later than the proof of any heartbeat sent after the question (the Redis
     * source asks on its invalidation connection, which answers in order): a near cache whose read
     * returns first keeps its copy at once and caps it when the answer comes, so that meanwhile the
     * copy is served at most the staleness bound past the moment the read was sent.
     * @param key the key
     * @return the remaining time in milliseconds, as Redis's {@code PTTL} answers: -1 when the key
     *         has no expiry, -2 when there is no such key; a future failed if the question failed
     *         (the near cache then keeps nothing); or {@code null} when this source cannot tell (the
     *         default), and copies are bounded by the near cache's time to live only
     */
    default @Nullable CompletableFuture<Long> remainingTimeToLive(String key) {
        return null;
    }

    /**
     * Whether invalidations flow right now (connected, tracking, heartbeat answered in time).
     * @return {@code true} if they do
     */
    boolean isTracking();

    /**
     * What the source listens to, for logs, such as {@code redis 127.0.0.1:6379 (BCAST)}.
     * @return the description
     */
    String describe();

    /** Closes the connection; every subscription stops serving. Idempotent. */
    @Override
    void close();
}
