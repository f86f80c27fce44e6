package io.adaptivecache.redis;

import java.util.Objects;

import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CacheCommands;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;

/**
 * Builds {@link io.adaptivecache.management.ManagedCacheTemplate}s over Redis: a
 * {@link io.adaptivecache.CacheTemplate} to call, with the management a lifecycle, a switcher and
 * metrics need.
 *
 * <pre>{@code
 * ManagedCacheTemplate cache = RedisCacheTemplates.builder()
 *         .uri("redis://127.0.0.1:6379")
 *         .strategy(StrategySpec.multi())
 *         .start();
 * }</pre>
 *
 * <p>For the defaults and the settings shared with a cluster, see {@link AbstractRedisTemplateBuilder};
 * for Redis Cluster, {@link RedisClusterCacheTemplates}.
 */
public final class RedisCacheTemplates {

    private static final CacheCommands<StatefulRedisConnection<String, byte[]>> COMMANDS = CacheCommands.of(RedisCacheCommands.standalone());

    private RedisCacheTemplates() {
    }

    /**
     * Starts a builder.
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a Redis template; not thread-safe, use once. */
    public static final class Builder extends AbstractRedisTemplateBuilder<Builder> {

        private RedisURI uri = RedisURI.create("redis://127.0.0.1:6379");
        private RedisDriver pooledDriver = RedisDriver.LETTUCE;
        private javax.net.ssl.@Nullable SSLContext jedisSslContext;

        private Builder() {
            super("redis");
        }

        /**
         * Where to connect, as {@code redis://[user:password@]host:port[/database]} or
         * {@code rediss://} for TLS; default {@code redis://127.0.0.1:6379}.
         * @param uri the URI
         * @return this builder
         * @throws IllegalArgumentException if the URI is malformed
         */
        public Builder uri(String uri) {
            return uri(parseUri(uri));
        }

        /**
         * Where to connect.
         * @param uri the URI
         * @return this builder
         */
        public Builder uri(RedisURI uri) {
            this.uri = Objects.requireNonNull(uri, "uri");
            return this;
        }

        /**
         * The driver of POOLED strategies' connections: {@link RedisDriver#LETTUCE} (the default)
         * or {@link RedisDriver#JEDIS}, blocking connections that do the I/O on the caller's
         * thread (needs {@code redis.clients:jedis} on the classpath). SINGLE and MULTI always
         * run on Lettuce; a switch between them and a Jedis POOLED changes the driver too.
         * @param pooledDriver the driver
         * @return this builder
         */
        public Builder pooledDriver(RedisDriver pooledDriver) {
            this.pooledDriver = Objects.requireNonNull(pooledDriver, "pooledDriver");
            return this;
        }

        /**
         * The TLS context of Jedis connections to a {@code rediss://} URI, for trust or key
         * material beyond the JVM's defaults (Lettuce's come from
         * {@code clientOptions(options -> options.sslOptions(...))}); default: the JVM's.
         * @param sslContext the context
         * @return this builder
         */
        public Builder jedisSslContext(javax.net.ssl.SSLContext sslContext) {
            this.jedisSslContext = Objects.requireNonNull(sslContext, "sslContext");
            return this;
        }

        /**
         * On Lettuce alone, the backend's connections are Lettuce's own and its commands
         * Lettuce's; with a Jedis POOLED driver, each connection comes bound to its driver's
         * commands ({@link BoundConnection}). Chosen here, once: no call asks for its driver.
         */
        @Override
        protected CacheBackend<?> backend() {
            ClientResources clientResources = clientResources();
            RedisClient client = RedisClient.create(clientResources);
            client.setOptions(configure(ClientOptions.builder()).build());
            RedisURI connectionUri = RedisURI.builder(uri).withTimeout(commandTimeout()).build();
            RedisConnections connections = new RedisConnections(client, connectionUri);
            RedisAuthentication authentication = authentication(connections.describe(), uri, clientResources);
            connections.authentication(authentication);
            RedisExceptionTranslator translator = new RedisExceptionTranslator(connections.describe(), authentication, requestQueueSize());
            Runnable shutdown = shutdown(client, clientResources);
            Runnable close = () -> {
                authentication.close();
                shutdown.run();
            };
            if (this.pooledDriver == RedisDriver.JEDIS) {
                // Jedis is optional: its classes load on this path only.
                JedisPooledConnections both = new JedisPooledConnections(connections, COMMANDS, connectionUri, connectTimeout(),
                        this.jedisSslContext, authentication);
                return CacheBackend.of("redis", both, both.strategies(), BoundConnection.COMMANDS, inputRules(), translator,
                        commandTimeout(), close);
            }
            return CacheBackend.of("redis", connections, COMMANDS, inputRules(), translator, commandTimeout(), close);
        }
    }

    /**
     * Parses a Redis URI as the builders take it (a template's, an invalidation source's).
     * @param uri {@code redis://[user:password@]host:port[/database]} or {@code rediss://...}
     * @return the URI
     * @throws IllegalArgumentException if the URI is malformed; the message masks its credentials
     */
    public static RedisURI parseUri(String uri) {
        Objects.requireNonNull(uri, "uri");
        try {
            return RedisURI.create(uri);
        }
        catch (IllegalArgumentException ex) {
            // Never echo a password: the URI's user-info part is masked, and Lettuce's own message dropped.
            throw new IllegalArgumentException("Malformed Redis URI '" + maskCredentials(uri)
                    + "': expected redis://[user:password@]host:port[/database] or rediss://...");
        }
    }

    /**
     * A Redis URI as it may be shown in messages and logs: any user-info part
     * ({@code user:password@}) replaced by {@code ****}.
     * @param uri the URI, or any text holding one
     * @return the text without credentials
     */
    public static String maskCredentials(String uri) {
        return uri.replaceAll("(?<=://)[^@/]*@", "****@");
    }
}
