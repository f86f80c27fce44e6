package io.adaptivecache.autoconfigure;

import java.util.Locale;

import io.adaptivecache.metrics.NodeBreaker;
import io.adaptivecache.redis.RedisClusterCacheTemplates;
import io.lettuce.core.ReadFrom;

/**
 * Reads {@code adaptive-cache.redis.cluster.*} into a cluster template builder; the nodes, their
 * credentials and TLS, and the redirects (Spring Data Redis's {@code spring.data.redis.cluster.*}
 * when no {@code adaptive-cache.redis} connection setting is given) come from the
 * {@link ResolvedRedisConnection}.
 */
final class RedisClusterSettings {

    private static final String PREFIX = "adaptive-cache.redis.cluster";

    private RedisClusterSettings() {
    }

    /** A cluster builder with the resolved connection's nodes and the cluster settings applied; the caller applies the rest. */
    static RedisClusterCacheTemplates.Builder builder(AdaptiveCacheRedisProperties redis, ResolvedRedisConnection connection) {
        AdaptiveCacheRedisProperties.Cluster cluster = redis.getCluster();
        RedisClusterCacheTemplates.Builder builder = RedisClusterCacheTemplates.builder().nodeUris(connection.clusterNodes());
        builder.maxRedirects(connection.maxRedirects());
        builder.topologyRefreshPeriod(cluster.refresh().period());
        builder.adaptiveTopologyRefresh(cluster.refresh().adaptive());
        AdaptiveCacheRedisProperties.NodeBreaker nodeBreaker = cluster.nodeBreaker();
        builder.nodeBreaker(new NodeBreaker.Settings(nodeBreaker.failureThreshold(), nodeBreaker.openDuration()));
        if (cluster.readFrom() != null) {
            builder.readFrom(readFrom(cluster.readFrom()));
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
}
