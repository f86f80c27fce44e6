package io.adaptivecache.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

import io.adaptivecache.command.CacheInputRules;
import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.strategy.PoolConfigCustomizer;
import io.adaptivecache.strategy.StrategySpec;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

/**
 * Builds {@link io.adaptivecache.CacheTemplate}s over Redis.
 *
 * <pre>{@code
 * DefaultCacheTemplate<?> cache = RedisCacheTemplates.builder()
 *         .uri("redis://127.0.0.1:6379")
 *         .strategy(StrategySpec.multi())
 *         .start();
 * }</pre>
 *
 * <p>Defaults fit a cache: TCP_NODELAY on; a 1 s command timeout on Lettuce's own timer; a
 * request queue bounded at 8,192 commands per connection; commands rejected at once (not
 * buffered) while a connection is down, so a dead server costs a fast error rather than a
 * growing heap; automatic reconnection.
 */
public final class RedisCacheTemplates {

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
    public static final class Builder {

        private String name = "redis";
        private RedisURI uri = RedisURI.create("redis://127.0.0.1:6379");
        private StrategySpec strategy = StrategySpec.multi();
        private Duration commandTimeout = Duration.ofSeconds(1);
        private Duration connectTimeout = Duration.ofSeconds(2);
        private Duration drainTimeout = Duration.ofSeconds(3);
        private int requestQueueSize = 8192;
        private int maxKeyBytes = 16 * 1024;
        private int maxValueBytes = 512 * 1024 * 1024;
        private ClientResources resources;
        private Consumer<ClientResources.Builder> resourcesCustomizer = resources -> {
        };
        private Consumer<ClientOptions.Builder> optionsCustomizer = options -> {
        };

        private PoolConfigCustomizer poolCustomizer = PoolConfigCustomizer.NONE;

        private Builder() {
        }

        /**
         * Adjusts the commons-pool2 configuration of POOLED strategies, after max-total,
         * max-idle, min-idle and max-wait are applied.
         * @param poolCustomizer the customizer
         * @return this builder
         */
        public Builder poolConfig(PoolConfigCustomizer poolCustomizer) {
            this.poolCustomizer = Objects.requireNonNull(poolCustomizer, "poolCustomizer");
            return this;
        }

        /**
         * The template's name, for logs and metrics; default {@code redis}.
         * @param name the name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Where to connect, as {@code redis://[user:password@]host:port[/database]} or
         * {@code rediss://} for TLS; default {@code redis://127.0.0.1:6379}.
         * @param uri the URI
         * @return this builder
         * @throws IllegalArgumentException if the URI is malformed
         */
        public Builder uri(String uri) {
            Objects.requireNonNull(uri, "uri");
            try {
                return uri(RedisURI.create(uri));
            }
            catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("Malformed Redis URI '" + uri
                        + "': expected redis://[user:password@]host:port[/database] or rediss://... (" + ex.getMessage() + ")", ex);
            }
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
         * The strategy to open with; default {@link StrategySpec#multi()}.
         * @param strategy the strategy
         * @return this builder
         */
        public Builder strategy(StrategySpec strategy) {
            this.strategy = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        /**
         * How long a command may take, on Lettuce's own timer; default 1 s.
         * @param commandTimeout positive
         * @return this builder
         */
        public Builder commandTimeout(Duration commandTimeout) {
            this.commandTimeout = positive(commandTimeout, "command timeout");
            return this;
        }

        /**
         * How long connecting may take; default 2 s.
         * @param connectTimeout positive
         * @return this builder
         */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connect timeout");
            return this;
        }

        /**
         * Longest wait for a retired strategy's calls before closing it; keep it above the
         * command timeout; default 3 s.
         * @param drainTimeout positive
         * @return this builder
         */
        public Builder drainTimeout(Duration drainTimeout) {
            this.drainTimeout = positive(drainTimeout, "drain timeout");
            return this;
        }

        /**
         * Most commands queued or in flight per connection before new ones fail at once;
         * default 8,192.
         * @param requestQueueSize at least 1
         * @return this builder
         */
        public Builder requestQueueSize(int requestQueueSize) {
            if (requestQueueSize < 1) {
                throw new IllegalArgumentException("The request queue size must be at least 1, was " + requestQueueSize);
            }
            this.requestQueueSize = requestQueueSize;
            return this;
        }

        /**
         * The longest key accepted, in UTF-8 bytes; default 16 KiB.
         * @param maxKeyBytes at least 1
         * @return this builder
         */
        public Builder maxKeyBytes(int maxKeyBytes) {
            this.maxKeyBytes = maxKeyBytes;
            return this;
        }

        /**
         * The largest value accepted, in bytes; default 512 MiB (Redis's own limit).
         * @param maxValueBytes at least 1
         * @return this builder
         */
        public Builder maxValueBytes(int maxValueBytes) {
            this.maxValueBytes = maxValueBytes;
            return this;
        }

        /**
         * Client resources to share with other clients; the template will not shut them down.
         * By default the template creates its own and shuts them down on close.
         * @param resources the resources
         * @return this builder
         */
        public Builder clientResources(ClientResources resources) {
            this.resources = Objects.requireNonNull(resources, "resources");
            return this;
        }

        /**
         * Adjusts the client resources the template creates for itself (ignored when
         * {@link #clientResources(ClientResources)} supplies shared ones).
         * @param customizer receives the resources builder
         * @return this builder
         */
        public Builder clientResources(Consumer<ClientResources.Builder> customizer) {
            this.resourcesCustomizer = this.resourcesCustomizer.andThen(Objects.requireNonNull(customizer, "customizer"));
            return this;
        }

        /**
         * Adjusts Lettuce's client options after the defaults are applied.
         * @param customizer receives the options builder
         * @return this builder
         */
        public Builder clientOptions(Consumer<ClientOptions.Builder> customizer) {
            this.optionsCustomizer = this.optionsCustomizer.andThen(Objects.requireNonNull(customizer, "customizer"));
            return this;
        }

        /**
         * Builds a template without connecting; call {@link DefaultCacheTemplate#start()} (or let
         * a lifecycle do it) before use.
         * @return the template
         */
        public DefaultCacheTemplate<StatefulRedisConnection<String, byte[]>> build() {
            CacheInputRules rules = CacheInputRules.builder("Redis").maxKeyBytes(maxKeyBytes)
                    .maxValueBytes(maxValueBytes).build();
            boolean ownsResources = resources == null;
            ClientResources clientResources = resources;
            if (ownsResources) {
                DefaultClientResources.Builder builder = DefaultClientResources.builder();
                resourcesCustomizer.accept(builder);
                clientResources = builder.build();
            }
            RedisURI target = RedisURI.builder(uri).withTimeout(commandTimeout).build();
            ClientOptions.Builder options = ClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .requestQueueSize(requestQueueSize)
                    .socketOptions(SocketOptions.builder().tcpNoDelay(true).connectTimeout(connectTimeout).build())
                    .timeoutOptions(TimeoutOptions.enabled(commandTimeout));
            optionsCustomizer.accept(options);
            RedisClient client = RedisClient.create(clientResources);
            client.setOptions(options.build());
            RedisBackend backend = new RedisBackend(client, clientResources, ownsResources,
                    new RedisConnections(client, target), rules, commandTimeout);
            return new DefaultCacheTemplate<>(name, backend, strategy, drainTimeout, poolCustomizer);
        }

        /**
         * Builds a template and opens its connections.
         * @return the running template
         * @throws io.adaptivecache.CacheConnectionException if Redis cannot be reached
         */
        public DefaultCacheTemplate<StatefulRedisConnection<String, byte[]>> start() {
            DefaultCacheTemplate<StatefulRedisConnection<String, byte[]>> template = build();
            try {
                template.start();
            }
            catch (RuntimeException ex) {
                template.close();
                throw ex;
            }
            return template;
        }

        private static Duration positive(Duration duration, String what) {
            if (duration == null || duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("The " + what + " must be positive, was " + duration);
            }
            return duration;
        }
    }
}
