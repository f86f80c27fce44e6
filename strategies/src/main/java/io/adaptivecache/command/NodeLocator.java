package io.adaptivecache.command;

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
}
