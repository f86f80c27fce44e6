package io.adaptivecache.redis;

import java.util.List;
import java.util.stream.Collectors;

import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import org.jspecify.annotations.Nullable;

/**
 * Opens Lettuce cluster connections with String keys and {@code byte[]} values, all from one
 * {@link RedisClusterClient}, and so on one topology view and one set of client resources. A
 * cluster connection is thread-safe and holds one connection per node it has talked to,
 * routing each command by its key's hash slot; a strategy's N connections are N of these.
 */
public final class RedisClusterConnections extends LettuceConnections<StatefulRedisClusterConnection<String, byte[]>> {

    private final RedisClusterClient client;
    private final @Nullable ReadFrom readFrom;

    /**
     * Creates a factory.
     * @param client the client whose seeds, options, topology and resources every connection shares
     * @param seeds the nodes the client was created with, for messages
     * @param readFrom where reads go, or {@code null} for the masters
     */
    public RedisClusterConnections(RedisClusterClient client, List<RedisURI> seeds, @Nullable ReadFrom readFrom) {
        super((seeds.stream().anyMatch(RedisURI::isSsl) ? "rediss-cluster://" : "redis-cluster://")
                + seeds.stream().map(seed -> seed.getHost() + ":" + seed.getPort()).collect(Collectors.joining(",")));
        this.client = client;
        this.readFrom = readFrom;
    }

    @Override
    public StatefulRedisClusterConnection<String, byte[]> open() {
        try {
            StatefulRedisClusterConnection<String, byte[]> connection = client.connect(CODEC);
            if (readFrom != null) {
                connection.setReadFrom(readFrom);
            }
            return connection;
        }
        catch (RedisException ex) {
            throw RedisConnections.connectFailure(this.authentication, "Cannot connect to Redis Cluster at " + description, ex);
        }
    }
}
