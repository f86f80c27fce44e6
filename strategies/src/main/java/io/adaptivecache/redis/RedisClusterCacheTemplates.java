package io.adaptivecache.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.backend.NodeObservingCommands;
import io.adaptivecache.internal.Arguments;
import io.adaptivecache.metrics.NodeBreaker;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.metrics.NodeSensors;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

/**
 * Builds {@link io.adaptivecache.management.ManagedCacheTemplate}s over Redis Cluster. The strategies are the same
 * as on one server, with a cluster connection as the unit: SINGLE is one cluster connection,
 * MULTI(N) is N of them, POOLED is a pool of them. Each cluster connection routes every command
 * to the node of its key's hash slot, follows MOVED and ASK redirects and keeps one connection
 * per node.
 *
 * <pre>{@code
 * ManagedCacheTemplate cache = RedisClusterCacheTemplates.builder()
 *         .nodes("10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379")
 *         .strategy(StrategySpec.multi())
 *         .start();
 * }</pre>
 *
 * <p>{@code getAll} is split by hash slot, one MGET per slot, all in flight at once on the
 * nodes concerned; the result keeps the caller's order. Keys that must live on one node (for
 * one MGET, or for locality) share a hash tag: only the part between the first <code>{</code>
 * and the next <code>}</code> is hashed, so {@code {user42}:profile} and {@code {user42}:cart}
 * share a slot. CAS works as on one server: its script runs on the key's node.
 *
 * <p>The topology is refreshed periodically (default every 30 s) and, by default, at once on
 * MOVED or ASK redirects, on persistent reconnects (a failed master) and on unknown nodes or
 * uncovered slots, at most once a second, and at once (at most every 250 ms) when a call finds a
 * node not answering, so that a promoted replica is found soon after its promotion.
 * Each node has its own circuit breaker ({@link Builder#nodeBreaker}): a node that stops
 * answering costs its own keys' callers a fast failure, not every caller a timeout.
 * Calls are attributed to their slot's node ({@link io.adaptivecache.management.CacheTemplateManagement#nodeSensors()}),
 * and a window in which one node stands out is kept from steering the adaptive switcher.
 */
public final class RedisClusterCacheTemplates {

    private static final CacheCommands<StatefulRedisClusterConnection<String, byte[]>> COMMANDS = CacheCommands.of(RedisCacheCommands.cluster());

    /** How often adaptive refreshes may run: quick to find a promoted replica, yet no storm of CLUSTER NODES. */
    private static final Duration ADAPTIVE_REFRESH_RATE_LIMIT = Duration.ofSeconds(1);

    private RedisClusterCacheTemplates() {
    }

    /**
     * Whether a node listed by {@code CLUSTER NODES} is kept in the client's topology: every node
     * but one the cluster has flagged as failed that serves no slot (a master whose replica took
     * over, a dead replica). The cluster lists such a node until it comes back or is forgotten;
     * kept, every cluster connection would hold a connection to it that reconnects (Lettuce logs a
     * WARN for it every 5 s), and each failed reconnect would trigger a topology refresh that tries
     * it again (another WARN, every 2 s) for as long as it stays down. Dropped, Lettuce closes those
     * connections as stale. A failed node that still serves slots is kept: its keys have no other
     * home, and its calls must keep failing as that node's.
     * @param node a node as a topology refresh read it
     * @return {@code false} for a failed node without slots
     */
    static boolean belongsInTopology(RedisClusterNode node) {
        return !node.is(RedisClusterNode.NodeFlag.FAIL) || (node.getSlots() != null && !node.getSlots().isEmpty());
    }

    /** Ends the outage of every node whose breaker is open and that serves no slot any more. */
    static void retireReplacedNodes(NodeSensors sensors, ClusterTopologyChangedEvent event) {
        for (NodeSensor sensor : sensors.sensors()) {
            if (!sensor.breaker().isOpen()) {
                continue;
            }
            RedisClusterNode before = find(event.before(), sensor.id());
            if (before == null) {
                continue; // not about this node (client resources may be shared with another cluster's client)
            }
            RedisClusterNode now = find(event.after(), sensor.id());
            if (now != null && now.getSlots() != null && !now.getSlots().isEmpty() && !now.is(RedisClusterNode.NodeFlag.FAIL)) {
                continue;
            }
            String heir = null;
            if (before.getSlots() != null && !before.getSlots().isEmpty()) {
                int slot = before.getSlots().get(0);
                for (RedisClusterNode candidate : event.after()) {
                    if (candidate.hasSlot(slot) && candidate.getUri() != null) {
                        heir = candidate.getUri().getHost() + ":" + candidate.getUri().getPort();
                    }
                }
            }
            sensor.breaker().retire(heir != null ? "its slots are served by " + heir + " now" : "it serves no slot any more");
        }
    }

    private static @Nullable RedisClusterNode find(java.util.List<RedisClusterNode> nodes, String id) {
        for (RedisClusterNode node : nodes) {
            if (id.equals(node.getNodeId())) {
                return node;
            }
        }
        return null;
    }

    /**
     * Starts a builder.
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a Redis Cluster template; not thread-safe, use once. */
    public static final class Builder extends AbstractRedisTemplateBuilder<Builder> {

        private final List<RedisURI> nodes = new ArrayList<>();
        private int maxRedirects = 5;
        private Duration topologyRefreshPeriod = Duration.ofSeconds(30);
        private boolean adaptiveTopologyRefresh = true;
        // Unless set: reads go to the masters, and the template makes its own node sensors.
        private @Nullable ReadFrom readFrom;
        private @Nullable NodeSensors nodeSensors;
        private NodeBreaker.Settings nodeBreaker = NodeBreaker.Settings.DEFAULTS;

        private Builder() {
            super("redis");
        }

        /**
         * Seed nodes, as {@code host:port} or {@code redis://[user:password@]host:port} (or
         * {@code rediss://} for TLS); any one reachable node is enough to discover the others.
         * @param nodes at least one
         * @return this builder
         * @throws IllegalArgumentException if a node is malformed
         */
        public Builder nodes(String... nodes) {
            return nodes(List.of(nodes));
        }

        /**
         * Seed nodes, as {@code host:port} or {@code redis://[user:password@]host:port}.
         * @param nodes at least one
         * @return this builder
         * @throws IllegalArgumentException if a node is malformed, or a Sentinel URI
         *     ({@link RedisCacheTemplates#refuseSentinel(RedisURI)})
         */
        public Builder nodes(List<String> nodes) {
            for (String node : nodes) {
                Objects.requireNonNull(node, "node");
                if (RedisCacheTemplates.isSentinelUri(node)) {
                    // The template's words, not "malformed": a Sentinel URI is well formed, and not supported yet.
                    throw RedisCacheTemplates.sentinelRefused();
                }
                String uri = node.contains("://") ? node : "redis://" + node.trim();
                try {
                    RedisURI parsed = RedisURI.create(uri);
                    if (parsed.getHost() == null || parsed.getHost().isBlank()) {
                        throw new IllegalArgumentException("no host");
                    }
                    this.nodes.add(parsed);
                }
                catch (IllegalArgumentException ex) {
                    throw new IllegalArgumentException("Malformed Redis Cluster node '" + RedisCacheTemplates.maskCredentials(node)
                            + "': expected host:port or redis://[user:password@]host:port");
                }
            }
            return this;
        }

        /**
         * Seed nodes, with their credentials and TLS settings.
         * @param nodes at least one
         * @return this builder
         * @throws IllegalArgumentException if a node names Sentinels ({@link RedisCacheTemplates#refuseSentinel(RedisURI)})
         */
        public Builder nodeUris(List<RedisURI> nodes) {
            nodes.forEach(node -> this.nodes.add(RedisCacheTemplates.refuseSentinel(Objects.requireNonNull(node, "node"))));
            return this;
        }

        /**
         * How many MOVED or ASK redirects a command may follow; default 5.
         * @param maxRedirects 0 or more
         * @return this builder
         */
        public Builder maxRedirects(int maxRedirects) {
            this.maxRedirects = Arguments.atLeast(maxRedirects, 0, "The max redirects");
            return this;
        }

        /**
         * How often the topology is read again, whatever happens; default 30 s.
         * @param period positive
         * @return this builder
         */
        public Builder topologyRefreshPeriod(Duration period) {
            this.topologyRefreshPeriod = positive(period, "topology refresh period");
            return this;
        }

        /**
         * Whether the topology is read again at once on MOVED/ASK redirects, persistent
         * reconnects, unknown nodes and uncovered slots; default on. Off, only the periodic
         * refresh reads it (none of Lettuce's adaptive triggers is enabled).
         * @param enabled whether to
         * @return this builder
         */
        public Builder adaptiveTopologyRefresh(boolean enabled) {
            this.adaptiveTopologyRefresh = enabled;
            return this;
        }

        /**
         * Where reads ({@code get}, {@code getAll}, {@code gets}) go, for example
         * {@link ReadFrom#REPLICA_PREFERRED}; default the masters. A replica may answer with a
         * slightly older value.
         * @param readFrom the read setting
         * @return this builder
         */
        public Builder readFrom(ReadFrom readFrom) {
            this.readFrom = Objects.requireNonNull(readFrom, "readFrom");
            return this;
        }

        /**
         * The per-node sensors to record into, with their nodes' breakers; by default new ones
         * with the default settings and the {@link #nodeBreaker node breaker} set here.
         * @param nodeSensors the sensors
         * @return this builder
         */
        public Builder nodeSensors(NodeSensors nodeSensors) {
            this.nodeSensors = Objects.requireNonNull(nodeSensors, "nodeSensors");
            return this;
        }

        /**
         * Each node's circuit breaker: after this many calls in a row that a node did not answer
         * (timeouts, lost connections), calls for its slots fail at once, with one trial call
         * per open duration, so that one frozen node does not hold up the callers of the others.
         * Default {@link NodeBreaker.Settings#DEFAULTS} (5 calls, 1 s);
         * {@link NodeBreaker.Settings#DISABLED} turns it off. Ignored when
         * {@link #nodeSensors(NodeSensors)} is given, whose breaker settings apply.
         * @param settings the breaker settings
         * @return this builder
         */
        public Builder nodeBreaker(NodeBreaker.Settings settings) {
            this.nodeBreaker = Objects.requireNonNull(settings, "settings");
            return this;
        }

        @Override
        protected CacheBackend<StatefulRedisClusterConnection<String, byte[]>> backend() {
            if (this.nodes.isEmpty()) {
                throw new IllegalStateException("No Redis Cluster nodes were given: name at least one seed node");
            }
            List<RedisURI> seeds = this.nodes.stream().map(node -> RedisURI.builder(node).withTimeout(commandTimeout()).build()).toList();
            ClusterTopologyRefreshOptions.Builder refresh = ClusterTopologyRefreshOptions.builder()
                    .enablePeriodicRefresh(this.topologyRefreshPeriod)
                    .adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_RATE_LIMIT);
            if (this.adaptiveTopologyRefresh) {
                // From the first failed reconnect (Lettuce's default waits for five, which its growing
                // reconnect delay stretches over seconds): a master that went away may have been replaced.
                refresh.enableAllAdaptiveRefreshTriggers().refreshTriggersReconnectAttempts(1);
            }
            else {
                // Lettuce 7 enables every adaptive trigger by default: off must say so.
                refresh.disableAllAdaptiveRefreshTriggers();
            }
            // The cluster settings first, so that a user's options customizer has the last word.
            ClusterClientOptions.Builder options = configure(ClusterClientOptions.builder().maxRedirects(this.maxRedirects)
                    .topologyRefreshOptions(refresh.build()).nodeFilter(RedisClusterCacheTemplates::belongsInTopology));
            ClientResources clientResources = clientResources();
            RedisClusterClient client = RedisClusterClient.create(clientResources, seeds);
            client.setOptions(options.build());
            NodeSensors sensors = this.nodeSensors != null ? this.nodeSensors
                    : new NodeSensors(64, NodeSensors.Settings.DEFAULTS, this.nodeBreaker);
            RedisClusterConnections connections = new RedisClusterConnections(client, seeds, this.readFrom);
            RedisAuthentication authentication = authentication(connections.describe(), seeds.get(0), clientResources);
            connections.authentication(authentication);
            connections.channelWrites(this.channelWrites);
            RedisExceptionTranslator translator = new RedisExceptionTranslator(connections.describe(), authentication, requestQueueSize());
            Runnable refreshNow = this.adaptiveTopologyRefresh ? () -> refreshTopology(client) : () -> {
            };
            // A node whose replica took over serves no call any more, so no trial call can end its outage: the
            // topology change does.
            Disposable topologyWatch = clientResources.eventBus().get()
                    .filter(ClusterTopologyChangedEvent.class::isInstance)
                    .subscribe(event -> retireReplacedNodes(sensors, (ClusterTopologyChangedEvent) event));
            Runnable shutdown = shutdown(client, clientResources);
            return CacheBackend.of("redis", connections,
                    new NodeObservingCommands<>(COMMANDS, new ClusterNodeLocator(sensors, refreshNow), translator), inputRules(),
                    translator, commandTimeout(), sensors, () -> {
                        topologyWatch.dispose();
                        authentication.close();
                        shutdown.run();
                    }).withNodeProbe(new RedisClusterNodeProbe(client, sensors, commandTimeout()));
        }

        private static void refreshTopology(RedisClusterClient client) {
            try {
                client.refreshPartitionsAsync().exceptionally(failure -> null);
            }
            catch (RuntimeException ex) {
                // A client shutting down; the periodic refresh is the fallback anyway.
            }
        }
    }
}
