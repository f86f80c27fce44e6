package io.adaptivecache.near;

import java.time.Duration;

import io.adaptivecache.CacheTemplate;

/**
 * A {@link CacheTemplate} with a local tier in front of another template (the remote tier):
 * reads of keys under the cached prefixes are answered from local memory when a current copy is
 * there, everything else goes to the remote template unchanged. Build one with
 * {@link NearCacheTemplates}.
 *
 * <p>Values returned from the local tier are copies: a caller may change the array it gets.
 * {@code gets}/{@code cas} always go to the server (a CAS token is the server's); every write
 * through this template drops the key's local copy before it is sent and again when it completes.
 */
public interface NearCacheTemplate extends CacheTemplate {

    /**
     * The template behind the local tier.
     * @return the remote template
     */
    CacheTemplate remote();

    /**
     * Whether the local tier answers reads right now. When it does not (invalidations are not
     * known to flow), every read goes to the server and nothing is kept.
     * @return {@code true} if the local tier serves
     */
    boolean isServingLocally();

    /**
     * The longest a read can lag behind a write that completed before it started. With Redis
     * invalidations this is the invalidation source's bound (the heartbeat interval plus the
     * heartbeat timeout), which only a silently broken connection can use up; healthy, the lag is
     * the time an invalidation takes to arrive. Without invalidations it is the staleness TTL.
     * @return the bound
     */
    Duration stalenessBound();

    /**
     * Counts since creation, per tier.
     * @return the counts
     */
    NearCacheStats stats();

    /**
     * Drops every local copy; reads in flight do not store what they bring back.
     */
    void invalidateLocal();

    /**
     * Releases the local tier and its subscription to invalidations. The remote template and the
     * invalidation source stay open: they may serve other near caches; close them yourself.
     */
    @Override
    void close();
}
