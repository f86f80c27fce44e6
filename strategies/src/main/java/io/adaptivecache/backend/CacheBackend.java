package io.adaptivecache.backend;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.metrics.NodeSensors;
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ExceptionTranslator;
import io.adaptivecache.strategy.StrategyFactory;
import org.jspecify.annotations.Nullable;

/**
 * Everything a cache template needs from one backend (Redis, memcached): how to
 * open a connection, how to issue each command on it, which input it accepts and how its
 * exceptions read. A backend owns the client-wide resources (event loops, timers) that its
 * connections share, and releases them in {@link #close()}.
 *
 * @param <C> the native connection type
 */
public interface CacheBackend<C> extends AutoCloseable {

    /**
     * The backend's kind, for logs and metrics tags.
     * @return for example {@code redis} or {@code memcached}
     */
    String kind();

    /**
     * Opens, checks and closes native connections.
     * @return the factory
     */
    ConnectionFactory<C> connections();

    /**
     * Issues commands on one connection.
     * @return the commands
     */
    CacheCommands<C> commands();

    /**
     * Opens the strategy each spec names on this backend's connections.
     * @return by default every strategy on {@link #connections()}
     */
    default StrategyFactory<C> strategies() {
        return StrategyFactory.of(connections());
    }

    /**
     * The keys, values and TTLs this backend accepts.
     * @return the rules
     */
    CacheInputRules inputRules();

    /**
     * Turns this backend's client exceptions into cache exceptions.
     * @return the translator
     */
    ExceptionTranslator exceptionTranslator();

    /**
     * The command timeout enforced by the client's own timer.
     * @return the timeout
     */
    Duration commandTimeout();

    /**
     * Per-node figures, for a backend that spreads keys over several servers and attributes
     * each call to one of them (Redis Cluster).
     * @return the sensors, or empty when the backend does not attribute calls to nodes
     */
    default Optional<NodeSensors> nodeSensors() {
        return Optional.empty();
    }

    /**
     * Asks each server node whether it answers, for a backend that spreads keys over several.
     * @return the probe, or empty when the backend has one server (or does not say)
     */
    default Optional<NodeProbe> nodeProbe() {
        return Optional.empty();
    }

    /**
     * This backend, with a probe of its nodes.
     * @param probe asks each node whether it answers
     * @return a backend that is this one in every other way
     */
    default CacheBackend<C> withNodeProbe(NodeProbe probe) {
        Objects.requireNonNull(probe, "probe");
        // A backend's parts are fixed when it is made, so holding them (rather than asking this
        // backend on each call) is this backend; closing still goes to it.
        return new AssembledCacheBackend<>(kind(), connections(), strategies(), commands(), inputRules(), exceptionTranslator(),
                commandTimeout(), nodeSensors().orElse(null), probe, this::close);
    }

    /** Releases client-wide resources, after every connection is closed. */
    @Override
    void close();

    /**
     * A backend assembled from its parts.
     * @param kind the backend's kind, such as {@code redis}
     * @param connections opens, checks and closes native connections
     * @param commands issues commands on one connection
     * @param inputRules the input the backend accepts
     * @param exceptionTranslator turns client exceptions into cache exceptions
     * @param commandTimeout the client's command timeout
     * @param onClose releases client-wide resources
     * @param <C> the native connection type
     * @return the backend
     */
    static <C> CacheBackend<C> of(String kind, ConnectionFactory<C> connections, CacheCommands<C> commands,
            CacheInputRules inputRules, ExceptionTranslator exceptionTranslator, Duration commandTimeout, Runnable onClose) {
        return of(kind, connections, StrategyFactory.of(connections), commands, inputRules, exceptionTranslator, commandTimeout,
                onClose);
    }

    /**
     * A backend assembled from its parts, whose strategies are opened by a factory of its own (a blocking pool).
     * @param kind the backend's kind, such as {@code redis}
     * @param connections opens, checks and closes native connections
     * @param strategies opens the strategy each spec names
     * @param commands issues commands on one connection
     * @param inputRules the input the backend accepts
     * @param exceptionTranslator turns client exceptions into cache exceptions
     * @param commandTimeout the client's command timeout
     * @param onClose releases client-wide resources
     * @param <C> the native connection type
     * @return the backend
     */
    static <C> CacheBackend<C> of(String kind, ConnectionFactory<C> connections, StrategyFactory<C> strategies,
            CacheCommands<C> commands, CacheInputRules inputRules, ExceptionTranslator exceptionTranslator, Duration commandTimeout,
            Runnable onClose) {
        return new AssembledCacheBackend<>(kind, connections, strategies, commands, inputRules, exceptionTranslator, commandTimeout,
                null, null, onClose);
    }

    /**
     * A backend assembled from its parts, that attributes calls to nodes.
     * @param kind the backend's kind, such as {@code redis-cluster}
     * @param connections opens, checks and closes native connections
     * @param commands issues commands on one connection, recording each in {@code nodes}
     * @param inputRules the input the backend accepts
     * @param exceptionTranslator turns client exceptions into cache exceptions
     * @param commandTimeout the client's command timeout
     * @param nodes the per-node sensors the commands record into
     * @param onClose releases client-wide resources
     * @param <C> the native connection type
     * @return the backend
     */
    static <C> CacheBackend<C> of(String kind, ConnectionFactory<C> connections, CacheCommands<C> commands,
            CacheInputRules inputRules, ExceptionTranslator exceptionTranslator, Duration commandTimeout, NodeSensors nodes,
            Runnable onClose) {
        return new AssembledCacheBackend<>(kind, connections, StrategyFactory.of(connections), commands, inputRules,
                exceptionTranslator, commandTimeout, Objects.requireNonNull(nodes, "nodes"), null, onClose);
    }
}

/** The plain holder behind {@link CacheBackend#of}. */
record AssembledCacheBackend<C>(String kind, ConnectionFactory<C> connections, StrategyFactory<C> strategies, CacheCommands<C> commands,
        CacheInputRules inputRules, ExceptionTranslator exceptionTranslator, Duration commandTimeout, @Nullable NodeSensors nodes,
        @Nullable NodeProbe probe, Runnable onClose) implements CacheBackend<C> {

    @Override
    public Optional<NodeSensors> nodeSensors() {
        return Optional.ofNullable(nodes);
    }

    @Override
    public Optional<NodeProbe> nodeProbe() {
        return Optional.ofNullable(probe);
    }

    @Override
    public void close() {
        onClose.run();
    }
}
