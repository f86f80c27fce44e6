package io.adaptivecache.management;

import java.time.Duration;
import java.util.Optional;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.backend.NodeProbe;
import io.adaptivecache.metrics.NodeSensors;
import io.adaptivecache.metrics.TemplateSensors;
import io.adaptivecache.resilience.GuardStatus;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import io.adaptivecache.strategy.SwitchReport;
import org.jspecify.annotations.Nullable;

/**
 * The operator's side of a cache template: its lifecycle, its connection strategy and the
 * figures read by the adaptive switcher, the Actuator endpoint and health indicator, the
 * Micrometer meters and observations. Application code calls the cache through
 * {@link io.adaptivecache.CacheTemplate} and never needs this; the templates the builders return
 * ({@link ManagedCacheTemplate}) are both.
 *
 * <p>Nothing here is called per cache call except what {@link #interceptCallsWith} installs.
 */
public interface CacheTemplateManagement extends AutoCloseable {

    /**
     * The name this template was given, used in logs, metrics tags and the endpoint's paths.
     * @return the name
     */
    String name();

    /**
     * The backend's kind: {@code redis} (a server or a cluster) or {@code memcached}.
     * @return the kind
     */
    String backendKind();

    /**
     * Opens the initial strategy's connections; building a template never does I/O. In
     * {@link CacheFailureMode#DEGRADE} mode a server that cannot be reached does not fail the
     * start: the template starts {@linkplain #isConnected() not connected}, calls degrade (reads
     * are misses, writes are skipped, both counted), and one daemon thread
     * ({@code adaptive-cache-connect-<name>}) retries with a backoff from 100 ms doubling to 5 s
     * until it connects; {@link #close()} stops it.
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached, in
     *     {@link CacheFailureMode#FAIL_FAST} mode
     */
    void start();

    /**
     * Whether the template serves calls.
     * @return {@code true} between {@link #start()} and {@link #close()}
     */
    boolean isRunning();

    /**
     * Whether calls reach the server: {@code false} while a template started in
     * {@link CacheFailureMode#DEGRADE} mode without its server has not connected yet (and before
     * {@link #start()}).
     * @return {@code true} once the strategy is open
     */
    boolean isConnected();

    /**
     * Where the background attempts to connect stand, while the template has not connected yet.
     * @return the attempts' status, or empty once connected (or if it never had to wait)
     */
    Optional<PendingConnection> pendingConnection();

    /**
     * Replaces the connection strategy while calls run; no call fails because of it.
     * @param spec the new strategy
     * @return what the switch did
     */
    SwitchReport switchStrategy(StrategySpec spec);

    /**
     * The live strategy.
     * @return its spec
     */
    StrategySpec activeStrategy();

    /**
     * The live strategy's figures.
     * @return the figures
     */
    StrategyStats strategyStats();

    /**
     * Connections borrowed from POOLED strategies since start, across switches.
     * @return the count
     */
    long totalBorrows();

    /**
     * Time callers spent waiting for a pooled connection since start, across switches.
     * @return nanoseconds
     */
    long totalBorrowWaitNanos();

    /**
     * Connections this template has open, including those of a strategy still draining.
     * @return the count
     */
    int openConnections();

    /**
     * Whether this template's POOLED strategies run on blocking connections (a Jedis-pooled Redis
     * template), which the adaptive policy may choose for a few callers on a short round trip.
     * @return {@code true} if they do
     */
    boolean pooledConnectionsBlock();

    /**
     * The longest wait, on a switch, for the replaced strategy's calls to finish before its
     * connections close.
     * @return the drain timeout this template was built with
     */
    Duration drainTimeout();

    /**
     * This template's sensors: per-call latency and outcome counts, sampled per window by the
     * adaptive switcher; attach a further observer (Micrometer) with {@link TemplateSensors#observeWith}.
     * @return the sensors
     */
    TemplateSensors sensors();

    /**
     * Figures per server node, for a backend that spreads keys over several (Redis Cluster).
     * @return the node sensors, or empty for a backend that does not attribute calls to nodes
     */
    Optional<NodeSensors> nodeSensors();

    /**
     * Asks each server node whether it answers, for a backend that spreads keys over several
     * (Redis Cluster): what a health check should use rather than {@link #probe(String)}, which
     * reaches only one key's node.
     * @return the probe, or empty for a backend with one server
     */
    Optional<NodeProbe> nodeProbe();

    /**
     * Reads a key through the guard but never degraded to a miss: a health check's question
     * "does the server answer?", which {@link CacheFailureMode#DEGRADE} must not hide.
     * @param key the key to read
     * @throws io.adaptivecache.CacheException if the server does not answer or the circuit is open
     */
    void probe(String key);

    /**
     * Wraps every call from now on (Micrometer Observations, say); health probes are not wrapped.
     * Set it before the template serves calls.
     * @param interceptor the interceptor, or {@code null} for none
     */
    void interceptCallsWith(@Nullable CallInterceptor interceptor);

    /**
     * The guard's state: circuit breaker, retry, bulkhead.
     * @return the status ({@link GuardStatus#UNGUARDED} without a guard)
     */
    GuardStatus guardStatus();

    /**
     * What callers see when a call fails.
     * @return the mode
     */
    CacheFailureMode failureMode();

    /**
     * Reads that failed and were answered as a miss ({@link CacheFailureMode#DEGRADE}) since start.
     * @return the count
     */
    long degradedReads();

    /**
     * Writes that failed and were skipped ({@link CacheFailureMode#DEGRADE}) since start.
     * @return the count
     */
    long skippedWrites();

    /**
     * The keys, values and TTLs this template accepts, as configured.
     * @return the rules
     */
    CacheInputRules inputRules();

    /** Drains calls in flight, closes every connection, then releases the backend's resources. Idempotent. */
    @Override
    void close();
}
