package io.adaptivecache.management;

import java.time.Duration;
import java.util.Optional;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.resilience.GuardStatus;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;

/**
 * One template's state at one moment, read at once: what the Actuator endpoint, the health
 * indicator, the gauges and the adaptive switcher show or judge. Immutable; reading one costs a
 * few volatile reads and this record, never a call to the server.
 *
 * @param backendKind {@code redis} (a server or a cluster) or {@code memcached}
 * @param running whether the template serves calls: between {@code start()} and {@code close()}
 * @param connected whether calls reach the server: {@code false} while a template started in
 *     {@link CacheFailureMode#DEGRADE} mode without its server has not connected yet, and before it starts
 * @param pendingConnection while not connected after such a start: since when, how many attempts, the last failure
 * @param activeStrategy the live strategy (the one it will open, before it starts)
 * @param strategyStats the live strategy's figures
 * @param totalBorrows connections borrowed from POOLED strategies since the start, across switches
 * @param totalBorrowWaitNanos time callers waited for a pooled connection since the start, across switches
 * @param openConnections connections open now, across the live strategy and any still draining
 * @param pooledConnectionsBlock whether a POOLED strategy's connections block their caller (Jedis): the policy keeps
 *     such a pool for few callers only
 * @param threadPerSharedConnection whether each connection of SINGLE or MULTI runs an I/O thread of its own (the
 *     memcached drivers): the policy may try fewer of them when every one is busy
 * @param drainTimeout the longest wait for a retired strategy's calls before its connections close
 * @param guardStatus the guard's state (circuit breaker, bulkhead)
 * @param failureMode what callers see when a call fails
 * @param degradedReads reads answered as a miss because the cache failed ({@link CacheFailureMode#DEGRADE})
 * @param skippedWrites writes skipped because the cache failed ({@link CacheFailureMode#DEGRADE})
 * @param inputRules the keys, values and TTLs the backend accepts, checked before anything is sent
 */
public record TemplateStats(String backendKind, boolean running, boolean connected, Optional<PendingConnection> pendingConnection,
        StrategySpec activeStrategy, StrategyStats strategyStats, long totalBorrows, long totalBorrowWaitNanos,
        int openConnections, boolean pooledConnectionsBlock, boolean threadPerSharedConnection, Duration drainTimeout, GuardStatus guardStatus,
        CacheFailureMode failureMode, long degradedReads, long skippedWrites, CacheInputRules inputRules) {
}
