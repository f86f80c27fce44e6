package io.adaptivecache.redis;

import java.util.Objects;

import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ConnectionLeases;
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
         * @throws IllegalArgumentException if the URI is malformed, or a Sentinel URI ({@link #refuseSentinel(RedisURI)})
         */
        public Builder uri(String uri) {
            return uri(parseUri(uri));
        }

        /**
         * Where to connect.
         * @param uri the URI
         * @return this builder
         * @throws IllegalArgumentException if the URI names Sentinels ({@code redis-sentinel://}), which are not supported yet
         */
        public Builder uri(RedisURI uri) {
            this.uri = refuseSentinel(Objects.requireNonNull(uri, "uri"));
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
            // Spreads a SINGLE or MULTI strategy's connections over the I/O threads (see SpreadingRedisClient).
            RedisClient client = new SpreadingRedisClient(clientResources);
            client.setOptions(configure(ClientOptions.builder()).build());
            RedisURI connectionUri = RedisURI.builder(uri).withTimeout(commandTimeout()).build();
            RedisConnections connections = new RedisConnections(client, connectionUri);
            RedisAuthentication authentication = authentication(connections.describe(), uri, clientResources);
            connections.authentication(authentication);
            connections.channelWrites(this.channelWrites);
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
     * The connections of a Redis template built by {@link #builder()} on Lettuce alone, to run
     * commands of another client on (a Spring Data Redis connection factory): each command
     * leases the connection the live strategy chooses, and switches drain these leases as they
     * drain the template's calls.
     * @param template a template from {@link #builder()}
     * @return its leases
     * @throws IllegalArgumentException if the template is a cluster's, runs POOLED on Jedis (whose
     *     connections are not Lettuce's), or was not built by this library's Redis builders
     */
    @SuppressWarnings("unchecked")
    public static RedisConnectionLeases connectionLeases(ManagedCacheTemplate template) {
        Objects.requireNonNull(template, "template");
        if (!(template instanceof ConnectionLeases<?> leases)) {
            throw new IllegalArgumentException("The template '" + template.name() + "' was not built by RedisCacheTemplates");
        }
        ConnectionFactory<?> factory = leases.connectionFactory();
        if (factory instanceof RedisConnections connections) {
            return new RedisConnectionLeases((ConnectionLeases<StatefulRedisConnection<String, byte[]>>) leases, connections);
        }
        // Not the Jedis class itself: Jedis is optional, and its classes load on its own path only.
        if (factory instanceof BoundConnection.Factory<?>) {
            throw new IllegalArgumentException("The template '" + template.name()
                    + "' runs POOLED on Jedis, whose connections are not Lettuce's; build it with pooledDriver(RedisDriver.LETTUCE)");
        }
        if (factory instanceof RedisClusterConnections) {
            throw new IllegalArgumentException("The template '" + template.name() + "' is a Redis Cluster template; only a standalone one "
                    + "lends its connections");
        }
        throw new IllegalArgumentException("The template '" + template.name() + "' is not a Redis template");
    }

    /**
     * Parses a Redis URI as the builders take it (a template's, an invalidation source's).
     * @param uri {@code redis://[user:password@]host:port[/database]} or {@code rediss://...}
     * @return the URI
     * @throws IllegalArgumentException if the URI is malformed (the message masks its credentials),
     *     or a Sentinel URI ({@link #refuseSentinel(RedisURI)}), even one Lettuce could not parse
     */
    public static RedisURI parseUri(String uri) {
        Objects.requireNonNull(uri, "uri");
        if (isSentinelUri(uri)) {
            // Before parsing: a Sentinel URI without its master's name is still a Sentinel URI, not a malformed one.
            throw sentinelRefused();
        }
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
     * Refuses a URI that names Sentinels ({@code redis-sentinel://} or {@code rediss-sentinel://}):
     * the one check of every builder that takes a Redis URI (a template's, a cluster's seed nodes,
     * a near cache invalidation source's), so that each refuses with the same words. Refused when
     * the builder is given it, before anything connects: the builders reach a server by its address
     * and never ask Sentinels for the master, and such a URI has no address of its own (unchecked,
     * it would fail only at start, in Lettuce's words about a missing host).
     * @param uri the URI
     * @return the URI, when it names no Sentinel
     * @throws IllegalArgumentException if it names Sentinels, which are not supported yet
     */
    public static RedisURI refuseSentinel(RedisURI uri) {
        if (!uri.getSentinels().isEmpty()) {
            throw sentinelRefused();
        }
        return uri;
    }

    /**
     * Whether a Redis URI, as text, is a Sentinel URI: its scheme is {@code redis-sentinel} or
     * {@code rediss-sentinel}, whatever follows (parsed or not).
     * @param uri the URI, or any text
     * @return {@code true} for a Sentinel scheme
     */
    public static boolean isSentinelUri(String uri) {
        String trimmed = uri.trim();
        return trimmed.regionMatches(true, 0, "redis-sentinel://", 0, "redis-sentinel://".length())
                || trimmed.regionMatches(true, 0, "rediss-sentinel://", 0, "rediss-sentinel://".length());
    }

    /** The refusal's words, the same from every builder; checked with {@link #refuseSentinel(RedisURI)} or {@link #isSentinelUri(String)}. */
    static IllegalArgumentException sentinelRefused() {
        return new IllegalArgumentException("Redis Sentinel is not supported yet: give the master's address"
                + " (redis://host:port or rediss://host:port) instead of a Sentinel URI");
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
