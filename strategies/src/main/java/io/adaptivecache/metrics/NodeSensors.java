package io.adaptivecache.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A template's figures per server node, for a backend that spreads keys over several nodes
 * (Redis Cluster). They make a single slow or failing node visible, and they keep it from
 * steering the adaptive switcher: {@link #closeWindow()} reports a window in which one node
 * stands out from the others as disturbed, because a change of strategy would not cure a node
 * and would penalise the callers of every other node.
 *
 * <p>Memory is bounded: at most {@code maxNodes} nodes are tracked (the rest share one sensor,
 * {@link #OTHER_NODES}), and a node that serves no call for {@link #FORGET_AFTER_IDLE_WINDOWS}
 * windows (a master that failed over, a node removed from the cluster) is forgotten.
 */
public final class NodeSensors {

    /** The id of the sensor shared by nodes beyond the tracked maximum. */
    public static final String OTHER_NODES = "(other nodes)";

    /** Windows without a call after which a node is forgotten. */
    public static final int FORGET_AFTER_IDLE_WINDOWS = 300;

    private final Map<String, NodeSensor> nodes = new ConcurrentHashMap<>();
    private final NodeSensor otherNodes = new NodeSensor(OTHER_NODES, OTHER_NODES);
    private final int maxNodes;
    private final Settings settings;
    private final NodeBreaker.Settings breakerSettings;
    private volatile Consumer<NodeSensor> onNewNode = node -> {
    };

    /**
     * Creates sensors with the default outlier settings and at most 64 nodes.
     */
    public NodeSensors() {
        this(64, Settings.DEFAULTS);
    }

    /**
     * Creates sensors.
     * @param maxNodes the most nodes tracked one by one
     * @param settings when a node stands out from the others
     */
    public NodeSensors(int maxNodes, Settings settings) {
        this(maxNodes, settings, NodeBreaker.Settings.DISABLED);
    }

    /**
     * Creates sensors whose nodes each have a {@link NodeBreaker circuit breaker}.
     * @param maxNodes the most nodes tracked one by one
     * @param settings when a node stands out from the others
     * @param breakerSettings when a node's breaker opens ({@link NodeBreaker.Settings#DISABLED} for none)
     */
    public NodeSensors(int maxNodes, Settings settings, NodeBreaker.Settings breakerSettings) {
        this.breakerSettings = java.util.Objects.requireNonNull(breakerSettings, "breakerSettings");
        if (maxNodes < 1) {
            throw new IllegalArgumentException("maxNodes must be at least 1, was " + maxNodes);
        }
        this.maxNodes = maxNodes;
        this.settings = settings;
    }

    /**
     * The sensor of a known node, without allocating; the hot path's first look.
     * @param id the node's id
     * @return its sensor, or {@code null} if it was not {@link #register registered}
     */
    public @Nullable NodeSensor sensor(String id) {
        return this.nodes.get(id);
    }

    /**
     * The sensor of a node, created on first sight.
     * @param id the node's id
     * @param address where it listens, as {@code host:port}
     * @return its sensor, or the shared {@link #OTHER_NODES} sensor when the maximum is reached
     */
    public NodeSensor register(String id, String address) {
        NodeSensor existing = this.nodes.get(id);
        if (existing != null) {
            return existing;
        }
        if (this.nodes.size() >= this.maxNodes) {
            return this.otherNodes;
        }
        @Nullable NodeSensor[] created = new NodeSensor[1];
        NodeSensor sensor = this.nodes.computeIfAbsent(id, key -> created[0] = new NodeSensor(key, address, this.breakerSettings));
        if (created[0] != null) {
            this.onNewNode.accept(sensor);
        }
        return sensor;
    }

    /**
     * The settings of each node's breaker.
     * @return the settings ({@link NodeBreaker.Settings#DISABLED} for none)
     */
    public NodeBreaker.Settings breakerSettings() {
        return this.breakerSettings;
    }

    /**
     * Hears of every node seen from now on (a Micrometer binder registers its meters).
     * @param listener called once per new node, on the calling thread
     */
    public void onNewNode(Consumer<NodeSensor> listener) {
        this.onNewNode = listener;
        this.nodes.values().forEach(listener);
    }

    /**
     * The nodes tracked now.
     * @return their sensors
     */
    public List<NodeSensor> sensors() {
        return List.copyOf(this.nodes.values());
    }

    /**
     * Every node's figures, by address.
     * @return a snapshot
     */
    public List<NodeFigures> figures() {
        List<NodeFigures> figures = new ArrayList<>();
        this.nodes.values().forEach(node -> figures.add(node.figures()));
        if (this.otherNodes.calls() > 0) {
            figures.add(this.otherNodes.figures());
        }
        figures.sort(Comparator.comparing(NodeFigures::address));
        return figures;
    }

    /**
     * Closes every node's window and says whether one node stood out in it. Call from one thread
     * only (the switcher's).
     * @return why the window should not steer the switcher, or {@code null} if no node stood out
     */
    public @Nullable String closeWindow() {
        List<NodeSensor> judged = new ArrayList<>();
        List<NodeSensor.NodeWindow> windows = new ArrayList<>();
        for (Iterator<NodeSensor> it = this.nodes.values().iterator(); it.hasNext();) {
            NodeSensor node = it.next();
            NodeSensor.NodeWindow window = node.closeWindow();
            if (node.idleWindows() >= FORGET_AFTER_IDLE_WINDOWS) {
                it.remove();
            }
            else if (window.calls() >= this.settings.minCallsPerNode()) {
                judged.add(node);
                windows.add(window);
            }
        }
        this.otherNodes.closeWindow();
        if (judged.size() < 2) {
            return null; // one node has nothing to be compared with: its slowness is the load's
        }
        String failing = failingNode(judged, windows);
        return failing != null ? failing : slowNode(judged, windows);
    }

    private @Nullable String failingNode(List<NodeSensor> judged, List<NodeSensor.NodeWindow> windows) {
        for (int i = 0; i < judged.size(); i++) {
            NodeSensor.NodeWindow window = windows.get(i);
            if (window.errors() > 0 && window.errors() >= window.calls() * this.settings.failingErrorRatio()) {
                return String.format(Locale.ROOT, "node %s failed %d of %d calls", judged.get(i).address(), window.errors(),
                        window.calls());
            }
        }
        return null;
    }

    private @Nullable String slowNode(List<NodeSensor> judged, List<NodeSensor.NodeWindow> windows) {
        double[] means = windows.stream().mapToDouble(NodeSensor.NodeWindow::meanLatencyNanos).toArray();
        double[] sorted = means.clone();
        Arrays.sort(sorted);
        // The lower median: with two nodes, the faster one is the reference.
        double median = sorted[(sorted.length - 1) / 2];
        for (int i = 0; i < means.length; i++) {
            if (means[i] > median * this.settings.slowFactor() && means[i] - median > this.settings.slowMarginNanos()) {
                return String.format(Locale.ROOT, "node %s is slow: mean %.2f ms against a median of %.2f ms over %d nodes",
                        judged.get(i).address(), means[i] / 1e6, median / 1e6, means.length);
            }
        }
        return null;
    }

    /**
     * When a node stands out from the others in a window.
     *
     * @param minCallsPerNode fewer calls leave a node out of the comparison
     * @param failingErrorRatio a node whose share of failed calls reaches this fails (0.01 = 1%)
     * @param slowFactor a node whose mean latency exceeds the median node's this many times is slow...
     * @param slowMarginNanos ...provided it exceeds it by at least this much too (sub-millisecond noise is not slowness)
     */
    public record Settings(long minCallsPerNode, double failingErrorRatio, double slowFactor, long slowMarginNanos) {

        /** 20 calls, 1% failed, 3 times and 1 ms slower than the median node. */
        public static final Settings DEFAULTS = new Settings(20, 0.01, 3.0, 1_000_000);
    }
}
