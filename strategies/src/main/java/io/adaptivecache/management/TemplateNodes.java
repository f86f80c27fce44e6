package io.adaptivecache.management;

import io.adaptivecache.backend.NodeProbe;
import io.adaptivecache.metrics.NodeSensors;

/**
 * The nodes of a template whose keys spread over several servers (Redis Cluster): each node's
 * figures and breaker, and a probe that asks every node.
 *
 * @param sensors each node's figures, breaker and disturbance judgement
 * @param probe asks each node directly, for health
 */
public record TemplateNodes(NodeSensors sensors, NodeProbe probe) {
}
