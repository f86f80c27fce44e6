package io.adaptivecache.backend;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Asks every node that serves keys whether it answers, for a backend that spreads keys over
 * several (Redis Cluster): a health check that reads one key would see only that key's node.
 * The nodes are asked in parallel, each for at most the backend's command timeout, so one
 * frozen node holds the check up no longer than that.
 */
@FunctionalInterface
public interface NodeProbe {

    /**
     * Pings every node that serves slots now.
     * @return one result per node, by address; empty if the topology names no node
     */
    List<NodeStatus> probe();

    /**
     * One node's answer.
     *
     * @param address where it listens, as {@code host:port}
     * @param nodeId its cluster node id
     * @param role {@code master} (only masters that serve slots are asked)
     * @param slots how many hash slots it serves
     * @param answered whether it answered the ping in time
     * @param failure why not, or {@code null}
     * @param breaker its circuit breaker's state ({@code CLOSED}, {@code OPEN}, {@code HALF_OPEN})
     */
    record NodeStatus(String address, String nodeId, String role, int slots, boolean answered, @Nullable String failure,
            String breaker) {
    }
}
