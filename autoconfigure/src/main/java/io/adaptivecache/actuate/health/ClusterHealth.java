package io.adaptivecache.actuate.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.adaptivecache.backend.NodeProbe.NodeStatus;
import io.adaptivecache.backend.NodeProbe;
import org.springframework.boot.health.contributor.Health;

/**
 * A cluster template's health from every master rather than from one key's node: UP when every
 * master answers; still UP, with a {@code degraded} detail naming the masters that do not, when
 * some answer (the template serves every other slot, and a cache that misses on one shard must
 * not make the application's whole health answer 503); DOWN only when no master answers. Each
 * master is a detail of its own: address, node id, slots, whether it answered (and why not) and
 * its circuit breaker's state.
 *
 * <p>UP with a detail rather than a status of its own: Boot maps DOWN and OUT_OF_SERVICE to 503,
 * and a custom status would need every application to give it an order and an HTTP code.
 */
final class ClusterHealth {

    private ClusterHealth() {
    }

    static Health.Builder check(NodeProbe probe) {
        List<NodeStatus> nodes = probe.probe();
        Map<String, Object> details = new LinkedHashMap<>();
        StringBuilder failing = new StringBuilder();
        int answered = 0;
        for (NodeStatus node : nodes) {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("nodeId", node.nodeId());
            detail.put("role", node.role());
            detail.put("slots", node.slots());
            detail.put("status", node.answered() ? "UP" : "DOWN");
            if (!node.answered()) {
                detail.put("reason", node.failure());
                failing.append(failing.isEmpty() ? "" : ", ").append(node.address());
            }
            else {
                answered++;
            }
            detail.put("circuitBreaker", node.breaker());
            details.put(node.address(), detail);
        }
        Health.Builder health;
        if (nodes.isEmpty()) {
            health = Health.down().withDetail("reason", "the cluster's topology names no master that serves slots");
        }
        else if (answered == 0) {
            health = Health.down().withDetail("reason", "no master of the cluster answers");
        }
        else if (answered < nodes.size()) {
            health = Health.up().withDetail("degraded", (nodes.size() - answered) + " of " + nodes.size()
                    + " masters do not answer (" + failing + "); calls for their slots fail or miss");
        }
        else {
            health = Health.up();
        }
        return health.withDetail("nodes", details);
    }
}
