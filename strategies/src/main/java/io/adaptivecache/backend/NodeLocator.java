package io.adaptivecache.backend;

import io.adaptivecache.metrics.NodeSensor;

/**
 * Finds the server node that serves a key on a connection that spreads keys over several
 * (a Redis Cluster connection routes by hash slot). Called once per single-key command, so it
 * must be quick, must not block and should not allocate once the node is known.
 *
 * @param <C> the native connection type
 */
@FunctionalInterface
public interface NodeLocator<C> {

    /**
     * The sensor of the node that serves a key.
     * @param connection the connection the command goes out on
     * @param key the command's key
     * @return the node's sensor
     */
    NodeSensor locate(C connection, String key);

    /**
     * Names where a key's call went, for a failure's message: for example
     * {@code node 10.0.0.2:6379 (slot 1234)}. Called only when a call fails.
     * @param connection the connection the command went out on
     * @param key the command's key
     * @param node the sensor {@link #locate} gave
     * @return a description that starts with a lower-case word
     */
    default String describe(C connection, String key, NodeSensor node) {
        return "node " + node.address();
    }

    /**
     * Hears that a node did not answer a call, or that its breaker refused one: a cluster backend
     * checks its topology, since a replica may have taken over. Must not block.
     * @param connection the connection the command went out on (or would have)
     * @param key the command's key
     * @param node the node's sensor
     */
    default void onNodeFailure(C connection, String key, NodeSensor node) {
    }
}
