package io.adaptivecache.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.adaptivecache.metrics.NodeBreaker;
import io.adaptivecache.redis.RedisClusterCacheTemplates;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Reads {@code adaptive-cache.redis.cluster.*}, or Spring Data Redis's
 * {@code spring.data.redis.cluster.*} when no {@code adaptive-cache.redis} connection setting is
 * given, into a cluster template builder.
 */
final class RedisClusterSettings {

    private static final String PREFIX = "adaptive-cache.redis.cluster";
    private static final String SPRING_PREFIX = "spring.data.redis";

    private RedisClusterSettings() {
    }

    /**
     * The seed nodes with the credentials and TLS that apply to every node.
     * @return empty when no cluster is configured
     */
    static List<RedisURI> nodes(AdaptiveCacheRedisProperties redis, Binder binder, boolean sslBundle) {
        List<String> ours = redis.getCluster().getNodes();
        if (!ours.isEmpty()) {
            return parse(PREFIX + ".nodes", ours, redis.getUsername(), redis.getPassword(),
                    sslBundle || Boolean.TRUE.equals(redis.getSsl().getEnabled()), redis.getClientName());
        }
        if (redis.hasConnectionSettings()) {
            return List.of();
        }
        List<String> springNodes = binder.bind(SPRING_PREFIX + ".cluster.nodes", Bindable.listOf(String.class)).orElse(List.of());
        if (springNodes.isEmpty()) {
            return List.of();
        }
        return parse(SPRING_PREFIX + ".cluster.nodes", springNodes,
                binder.bind(SPRING_PREFIX + ".username", String.class).orElse(null),
                binder.bind(SPRING_PREFIX + ".password", String.class).orElse(null),
                sslBundle || binder.bind(SPRING_PREFIX + ".ssl.enabled", Boolean.class).orElse(false),
                binder.bind(SPRING_PREFIX + ".client-name", String.class).orElse(null));
    }

    /** A cluster builder with the cluster settings applied; the caller applies the rest. */
    static RedisClusterCacheTemplates.Builder builder(AdaptiveCacheRedisProperties redis, Binder binder, List<RedisURI> nodes) {
        AdaptiveCacheRedisProperties.Cluster cluster = redis.getCluster();
        RedisClusterCacheTemplates.Builder builder = RedisClusterCacheTemplates.builder().nodeUris(nodes);
        boolean springSettings = cluster.getNodes().isEmpty() && !redis.hasConnectionSettings();
        int maxRedirects = cluster.getMaxRedirects();
        if (springSettings) {
            // Spring Data Redis's value, which this starter's binding did not check.
            maxRedirects = binder.bind(SPRING_PREFIX + ".cluster.max-redirects", Integer.class).orElse(maxRedirects);
            PropertyRules.zeroOrMore(SPRING_PREFIX + ".cluster.max-redirects", maxRedirects, "");
        }
        builder.maxRedirects(maxRedirects);
        builder.topologyRefreshPeriod(cluster.getRefresh().getPeriod());
        builder.adaptiveTopologyRefresh(cluster.getRefresh().isAdaptive());
        AdaptiveCacheRedisProperties.NodeBreaker nodeBreaker = cluster.getNodeBreaker();
        builder.nodeBreaker(new NodeBreaker.Settings(nodeBreaker.getFailureThreshold(), nodeBreaker.getOpenDuration()));
        if (cluster.getReadFrom() != null) {
            builder.readFrom(readFrom(cluster.getReadFrom()));
        }
        return builder;
    }

    /** Lettuce's read setting from a kebab-case (or camelCase) name. */
    static ReadFrom readFrom(String name) {
        String compact = name.trim().replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
        return switch (compact) {
            case "master", "upstream" -> ReadFrom.UPSTREAM;
            case "masterpreferred", "upstreampreferred" -> ReadFrom.UPSTREAM_PREFERRED;
            case "replica" -> ReadFrom.REPLICA;
            case "replicapreferred" -> ReadFrom.REPLICA_PREFERRED;
            case "anyreplica" -> ReadFrom.ANY_REPLICA;
            case "any" -> ReadFrom.ANY;
            case "lowestlatency", "nearest" -> ReadFrom.LOWEST_LATENCY;
            default -> throw new InvalidAdaptiveCachePropertyException(PREFIX + ".read-from", name,
                    "it must be master, master-preferred, replica, replica-preferred, any-replica, any or lowest-latency");
        };
    }

    private static List<RedisURI> parse(String property, List<String> nodes, @Nullable String username, @Nullable String password,
            boolean ssl, @Nullable String clientName) {
        List<RedisURI> uris = new ArrayList<>();
        for (String node : nodes) {
            String trimmed = node == null ? "" : node.trim();
            int colon = trimmed.lastIndexOf(':');
            int port;
            try {
                port = colon < 1 ? -1 : Integer.parseInt(trimmed.substring(colon + 1));
            }
            catch (NumberFormatException ex) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new InvalidAdaptiveCachePropertyException(property, node, "each node must be host:port, such as 10.0.0.1:6379");
            }
            uris.add(RedisCacheTemplateConfiguration.build(trimmed.substring(0, colon), port, username, password, null, ssl,
                    clientName));
        }
        return uris;
    }
}
