package io.adaptivecache.management;

import java.util.Optional;

import io.adaptivecache.metrics.TemplateSensors;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.SwitchReport;



/**
 * The operator's side of a cache template: its lifecycle, its connection strategy and the
 * figures read by the adaptive switcher, the Actuator endpoint and health indicator, the
 * Micrometer meters and observations. Application code calls the cache through
 * {@link io.adaptivecache.CacheTemplate} and never needs this; the templates the builders return
 * ({@link ManagedCacheTemplate}) are both.
 *
 * <p>Nothing here is called per cache call. A template's per-call hooks (a {@link CallInterceptor}, a
 * {@link io.adaptivecache.call.CallObserver}) are given to its builder.
 */
public interface CacheTemplateManagement extends AutoCloseable {

    /**
     * The name this template was given, used in logs, metrics tags and the endpoint's paths.
     * @return the name
     */
    String name();

    /**
     * Opens the initial strategy's connections; building a template never does I/O. In
     * {@link io.adaptivecache.CacheFailureMode#DEGRADE} mode a server that cannot be reached does not fail the
     * start: the template starts not connected ({@link TemplateStats#connected()}), calls degrade (reads
     * are misses, writes are skipped, both counted), and one daemon thread
     * ({@code adaptive-cache-connect-<name>}) retries with a backoff from 100 ms doubling to 5 s
     * until it connects; {@link #close()} stops it.
     * @throws io.adaptivecache.CacheConnectionException if the server cannot be reached, in
     *     {@link io.adaptivecache.CacheFailureMode#FAIL_FAST} mode
     */
    void start();

    /**
     * Replaces the connection strategy while calls run; no call fails because of it.
     * @param spec the new strategy
     * @return what the switch did
     */
    SwitchReport switchStrategy(StrategySpec spec);

    /**
     * The template's state and figures now, read at once.
     * @return an immutable snapshot
     */
    TemplateStats stats();

    /**
     * The template's own sensors: the windows the adaptive switcher judges, and the hub that
     * further call observers (Micrometer) are added to.
     * @return the sensors
     */
    TemplateSensors sensors();

    /**
     * The nodes, for a template whose keys spread over several servers (Redis Cluster).
     * @return the nodes, or empty for a single server or a memcached ring
     */
    Optional<TemplateNodes> nodes();

    /**
     * Reads a key through the guard but never degraded to a miss: a health check's question
     * "does the server answer?", which {@link io.adaptivecache.CacheFailureMode#DEGRADE} must not hide.
     * @param key the key to read
     * @throws io.adaptivecache.CacheException if the server does not answer or the circuit is open
     */
    void probe(String key);

    /** Drains calls in flight, closes every connection, then releases the backend's resources. Idempotent. */
    @Override
    void close();
}
