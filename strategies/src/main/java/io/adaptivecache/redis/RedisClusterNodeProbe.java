package io.adaptivecache.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.adaptivecache.backend.NodeProbe;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.metrics.NodeSensors;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * Pings every master that serves slots, in parallel, each for at most the command timeout, on a
 * cluster connection of its own (opened on the first probe, without blocking, and closed with
 * the client), so that a health check neither waits behind the template's calls nor takes one
 * of its connections.
 */
final class RedisClusterNodeProbe implements NodeProbe {

    private final RedisClusterClient client;
    private final NodeSensors sensors;
    private final Duration timeout;
    // Opened on the first probe, again after it failed.
    private @Nullable CompletableFuture<StatefulRedisClusterConnection<String, String>> connection;

    RedisClusterNodeProbe(RedisClusterClient client, NodeSensors sensors, Duration timeout) {
        this.client = client;
        this.sensors = sensors;
        this.timeout = timeout;
    }

    @Override
    public List<NodeStatus> probe() {
        CompletableFuture<StatefulRedisClusterConnection<String, String>> opened = connection();
        List<RedisClusterNode> masters = new ArrayList<>();
        Partitions partitions;
        try {
            partitions = this.client.getPartitions();
        }
        catch (RuntimeException ex) {
            return List.of(); // no topology read yet
        }
        for (RedisClusterNode node : partitions) {
            if (node.getRole() != null && node.getRole().isUpstream() && node.getSlots() != null && !node.getSlots().isEmpty()) {
                masters.add(node);
            }
        }
        List<CompletableFuture<NodeStatus>> answers = new ArrayList<>();
        for (RedisClusterNode node : masters) {
            String address = node.getUri() == null ? node.getNodeId() : node.getUri().getHost() + ":" + node.getUri().getPort();
            NodeSensor sensor = this.sensors.sensor(node.getNodeId());
            String breaker = sensor == null ? "CLOSED" : sensor.breaker().state();
            answers.add(opened.thenCompose(cluster -> cluster.getConnectionAsync(node.getNodeId()))
                    .thenCompose(nodeConnection -> nodeConnection.async().ping())
                    .toCompletableFuture()
                    .orTimeout(this.timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .handle((pong, failure) -> new NodeStatus(address, node.getNodeId(), "master", node.getSlots().size(),
                            failure == null, failure == null ? null : reason(failure), breaker)));
        }
        List<NodeStatus> statuses = new ArrayList<>();
        for (CompletableFuture<NodeStatus> answer : answers) {
            // Each completes within the timeout (orTimeout above), so this waits at most about that long in all.
            statuses.add(answer.join());
        }
        statuses.sort(Comparator.comparing(NodeStatus::address));
        return statuses;
    }

    private synchronized CompletableFuture<StatefulRedisClusterConnection<String, String>> connection() {
        if (this.connection == null || this.connection.isCompletedExceptionally()) {
            this.connection = this.client.connectAsync(StringCodec.UTF8).toCompletableFuture();
        }
        return this.connection;
    }

    private String reason(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        // Lettuce's own command timeout may fire first when it equals the probe's: the same silence, said the same way.
        if (cause instanceof TimeoutException || cause instanceof RedisCommandTimeoutException) {
            return "no answer to PING within " + this.timeout.toMillis() + " ms";
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    }
}
