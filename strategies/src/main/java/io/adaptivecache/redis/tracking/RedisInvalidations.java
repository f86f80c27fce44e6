package io.adaptivecache.redis.tracking;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.near.InvalidationSource;
import io.adaptivecache.redis.CredentialSafeCommandEncoder;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisTransport;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.jspecify.annotations.Nullable;

import static io.adaptivecache.internal.Arguments.positive;

/**
 * Builds the Redis {@link InvalidationSource} of near caches
 * ({@link io.adaptivecache.near.NearCacheTemplates#redis}): one dedicated RESP3 connection per
 * Redis server, on which the server broadcasts a message for every write to a key under the
 * near caches' prefixes ({@code CLIENT TRACKING on BCAST PREFIX ...}, Redis 6 or later).
 *
 * <pre>{@code
 * InvalidationSource invalidations = RedisInvalidations.builder()
 *         .uri("redis://cache:6379")
 *         .heartbeatInterval(Duration.ofMillis(500))
 *         .start();
 * }</pre>
 *
 * <p>Broadcasting on a connection of its own leaves the data path alone: the template's
 * connections (shared, pooled, Lettuce or Jedis, switched at runtime) need no tracking and no
 * redirection, and nothing has to be re-registered when they change. The cost is that the server
 * reports every write under the prefixes, not only to keys this instance has read.
 *
 * <p>The staleness bound is {@link Builder#heartbeatInterval} plus {@link Builder#heartbeatTimeout}:
 * a near cache serves only while a heartbeat sent less than that ago has been answered on the
 * invalidation connection, which proves every earlier invalidation arrived.
 *
 * <p>Each session writes a marker key, {@code adaptive-cache:near-marker:<name>:<uuid>}, with a
 * token of its own (10 minute time to live, extended every minute, deleted on close). Every
 * heartbeat reads it back, and a session whose marker is gone or changed counts as lost
 * ({@code SWAPDB}, which Redis does not report, a failover, a lost flush report); the near caches'
 * templates read it too, and a near cache serves only while its template finds the token, that
 * is, reads the keyspace this source tracks. With ACLs the user needs {@code SET}, {@code MGET},
 * {@code PEXPIRE} and {@code DEL} on {@code ~adaptive-cache:near-marker:*}.
 */
public final class RedisInvalidations {

    private RedisInvalidations() {
    }

    /**
     * Starts a builder.
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a Redis invalidation source; not thread-safe, use once. */
    public static final class Builder {

        private RedisURI uri = RedisURI.create("redis://127.0.0.1:6379");
        private String name = "redis";
        private Duration heartbeatInterval = Duration.ofMillis(500);
        private Duration heartbeatTimeout = Duration.ofMillis(500);
        private Duration connectTimeout = Duration.ofSeconds(2);
        private Duration maxReconnectDelay = Duration.ofSeconds(1);
        private ClientResources resources;
        private RedisTransport transport = RedisTransport.AUTO;
        private @Nullable SslOptions sslOptions;

        private Builder() {
        }

        /**
         * The Redis server, as the template's URI ({@code redis://[user:password@]host:port} or
         * {@code rediss://}); it must be the server the near caches' templates use.
         * @param uri the URI
         * @return this builder
         * @throws IllegalArgumentException if the URI is malformed, or a Sentinel URI
         *     ({@code redis-sentinel://}, refused as the template's builder refuses it)
         */
        public Builder uri(String uri) {
            return uri(RedisCacheTemplates.parseUri(uri));
        }

        /**
         * The Redis server.
         * @param uri the URI
         * @return this builder
         * @throws IllegalArgumentException if the URI names Sentinels, which are not supported yet
         *     ({@link RedisCacheTemplates#refuseSentinel(RedisURI)})
         */
        public Builder uri(RedisURI uri) {
            // The template's check and words: the source must reach the template's server, which no template reaches through Sentinels.
            this.uri = RedisCacheTemplates.refuseSentinel(Objects.requireNonNull(uri, "uri"));
            return this;
        }

        /**
         * The source's name, in its thread's name and its connection's client name
         * ({@code adaptive-cache-invalidations-<name>}); default {@code redis}.
         * @param name the name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * How often a PING proves the invalidation connection healthy; default 500 ms.
         * @param heartbeatInterval positive
         * @return this builder
         */
        public Builder heartbeatInterval(Duration heartbeatInterval) {
            this.heartbeatInterval = positive(heartbeatInterval, "heartbeat interval");
            return this;
        }

        /**
         * How long a heartbeat may go unanswered before invalidations count as lost (the local
         * tiers flush and the connection is replaced); default 500 ms.
         * @param heartbeatTimeout positive
         * @return this builder
         */
        public Builder heartbeatTimeout(Duration heartbeatTimeout) {
            this.heartbeatTimeout = positive(heartbeatTimeout, "heartbeat timeout");
            return this;
        }

        /**
         * How long connecting and turning tracking on may take; default 2 s.
         * @param connectTimeout positive
         * @return this builder
         */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connect timeout");
            return this;
        }

        /**
         * Longest wait between attempts to reconnect (the waits double from 10 ms); default 1 s.
         * @param maxReconnectDelay positive
         * @return this builder
         */
        public Builder maxReconnectDelay(Duration maxReconnectDelay) {
            this.maxReconnectDelay = positive(maxReconnectDelay, "max reconnect delay");
            return this;
        }

        /**
         * Client resources to share, such as the template's; the source will not shut them down.
         * By default it creates small ones of its own (one I/O thread).
         * @param resources the resources
         * @return this builder
         */
        public Builder clientResources(ClientResources resources) {
            this.resources = Objects.requireNonNull(resources, "resources");
            return this;
        }

        /**
         * The network transport; see {@link io.adaptivecache.redis.AbstractRedisTemplateBuilder#transport}.
         * @param transport the transport
         * @return this builder
         */
        public Builder transport(RedisTransport transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
            return this;
        }

        /**
         * Lettuce's TLS settings for a {@code rediss://} URI (trust and key material, protocols,
         * ciphers): give it the template's ({@code clientOptions(options -> options.sslOptions(...))}),
         * so that the invalidation connection trusts what the template's connections trust;
         * default: the JVM's. TLS itself is turned on by the URI. The source's other client options
         * are its own and cannot be changed: it needs RESP3, and no automatic reconnect since it
         * reconnects by itself to turn tracking on again.
         * @param sslOptions the TLS settings
         * @return this builder
         */
        public Builder sslOptions(SslOptions sslOptions) {
            this.sslOptions = Objects.requireNonNull(sslOptions, "sslOptions");
            return this;
        }

        /**
         * Starts the source: connects and waits for the first attempt (at most the connect
         * timeout). If the server cannot be reached it keeps trying in the background, and near
         * caches read from the server until it succeeds.
         * @return the source
         */
        public InvalidationSource start() {
            RedisTransport.select(this.transport);
            ClientResources clientResources = this.resources != null ? this.resources
                    : DefaultClientResources.builder().ioThreadPoolSize(1).computationThreadPoolSize(1)
                            // Lettuce's encoder logs each command's bytes at TRACE, the HELLO's password among them.
                            .nettyCustomizer(CredentialSafeCommandEncoder.customizer()).build();
            RedisURI connectTo = RedisURI.builder(this.uri).withTimeout(this.connectTimeout)
                    .withClientName("adaptive-cache-invalidations-" + this.name).build();
            RedisClient client = RedisClient.create(clientResources);
            ClientOptions.Builder options = ClientOptions.builder()
                    .protocolVersion(ProtocolVersion.RESP3)
                    // The source reconnects by itself, so that tracking is turned on again before anything is served.
                    .autoReconnect(false)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .socketOptions(SocketOptions.builder().tcpNoDelay(true).connectTimeout(this.connectTimeout).build())
                    .timeoutOptions(TimeoutOptions.enabled(this.connectTimeout));
            if (this.sslOptions != null) {
                options.sslOptions(this.sslOptions);
            }
            client.setOptions(options.build());
            ClientResources owned = clientResources == this.resources ? null : clientResources;
            Runnable shutdown = () -> {
                client.shutdown(0, 2, TimeUnit.SECONDS);
                if (owned != null) {
                    owned.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
                }
            };
            TrackingInvalidationSource source = new TrackingInvalidationSource(this.name, client, connectTo, shutdown,
                    this.heartbeatInterval, this.heartbeatTimeout, this.maxReconnectDelay, this.connectTimeout.multipliedBy(2));
            source.start();
            return source;
        }
    }
}
