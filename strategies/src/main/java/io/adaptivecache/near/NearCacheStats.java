package io.adaptivecache.near;

/**
 * A near cache's counts since it was created, per tier. Reads of keys outside the cached
 * prefixes are not counted: they never concern the local tier.
 *
 * @param localHits reads answered by the local tier
 * @param localMisses reads the local tier could not answer while serving, sent to the server
 * @param bypassedReads reads sent straight to the server because the local tier was not serving
 *        (invalidations not flowing, or not proven to flow within the staleness bound)
 * @param remoteHits reads sent to the server that found the key
 * @param remoteMisses reads sent to the server that did not find the key
 * @param localPuts values the local tier kept from the server's replies (absences are never kept)
 * @param discardedLoads server replies the local tier did not keep because an invalidation or a
 *        flush came while they were on their way
 * @param evictions local copies dropped for room or because their time to live ran out
 * @param serverInvalidations keys the server said changed
 * @param writeInvalidations local copies dropped because a write went through this near cache
 * @param flushes times the whole local tier was dropped (invalidations possibly lost, or the
 *        server flushed)
 * @param size local copies held now (an estimate)
 * @param remoteWrites writes sent to the server through this near cache
 * @param invalidationLagCount measured invalidation lags
 * @param invalidationLagTotalNanos their sum
 * @param invalidationLagMaxNanos the longest
 */
public record NearCacheStats(long localHits, long localMisses, long bypassedReads, long remoteHits, long remoteMisses,
        long localPuts, long discardedLoads, long evictions, long serverInvalidations, long writeInvalidations, long flushes,
        long size, long remoteWrites, long invalidationLagCount, long invalidationLagTotalNanos,
        long invalidationLagMaxNanos) {
}
