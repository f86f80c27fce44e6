package io.adaptivecache.autoconfigure;

import java.util.List;

import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/**
 * Reads Spring Boot's {@link DataRedisConnectionDetails} bean, when there is one, into the Redis
 * template's connection. A class of its own, loaded only when spring-boot-data-redis is on the class
 * path ({@link RedisConnectionConfiguration} checks first), so that the application starts without
 * it.
 *
 * <p>Boot's own properties-based bean is skipped: it reflects {@code spring.data.redis.*}, which
 * {@link ResolvedRedisConnection} reads directly as before, with the client name and the cluster's
 * redirects that the details do not carry. Any other bean (a {@code @ServiceConnection} container,
 * Docker Compose, or the application's own) describes the server to use.
 */
final class DataRedisConnectionDetailsReader {

    /** Spring Boot's bean made from spring.data.redis.*: package-private there, so known by its name. */
    private static final String PROPERTIES_DETAILS = "org.springframework.boot.data.redis.autoconfigure.PropertiesDataRedisConnectionDetails";

    private DataRedisConnectionDetailsReader() {
    }

    /**
     * The connection the application's details bean describes.
     * @param beanFactory where to look for the bean
     * @param redis the template's properties (the client name and the cluster's redirects)
     * @return the connection, or {@code null} when there is no bean, or only Boot's properties-based one
     * @throws IllegalStateException if the details describe Sentinel or master/replica, or no server
     */
    static @Nullable ResolvedRedisConnection read(BeanFactory beanFactory, AdaptiveCacheRedisProperties redis) {
        DataRedisConnectionDetails details = beanFactory.getBeanProvider(DataRedisConnectionDetails.class).getIfUnique();
        if (details == null || details.getClass().getName().equals(PROPERTIES_DETAILS)) {
            return null;
        }
        String source = "a " + DataRedisConnectionDetails.class.getSimpleName() + " bean (" + details.getClass().getName() + ")";
        if (details.getSentinel() != null) {
            throw new IllegalStateException(ResolvedRedisConnection.sentinelRefusal(source + " describes a Sentinel setup"));
        }
        SslBundle ssl = details.getSslBundle();
        boolean tls = ssl != null;
        String username = details.getUsername();
        String password = details.getPassword();
        DataRedisConnectionDetails.Cluster cluster = details.getCluster();
        if (cluster != null) {
            if (cluster.getNodes().isEmpty()) {
                throw new IllegalStateException(source + " describes a Redis Cluster without nodes");
            }
            List<RedisURI> nodes = cluster.getNodes().stream().map(node -> ResolvedRedisConnection.build(node.host(), node.port(),
                    username, password, null, tls, redis.getClientName())).toList();
            return ResolvedRedisConnection.fromDetails(null, nodes, ssl, redis.getCluster().maxRedirects(), source);
        }
        if (details.getMasterReplica() != null) {
            throw new IllegalStateException("Redis master/replica is not supported yet (" + source + " describes one): configure the"
                    + " master's address (adaptive-cache.redis.url, or adaptive-cache.redis.host and port) instead, or disable the"
                    + " template (adaptive-cache.redis.enabled=false)");
        }
        DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
        if (standalone == null) {
            throw new IllegalStateException(source + " describes no Redis server (no standalone server and no cluster)");
        }
        RedisURI uri = ResolvedRedisConnection.build(standalone.getHost(), standalone.getPort(), username, password,
                standalone.getDatabase(), tls, redis.getClientName());
        return ResolvedRedisConnection.fromDetails(uri, List.of(), ssl, redis.getCluster().maxRedirects(), source);
    }
}
