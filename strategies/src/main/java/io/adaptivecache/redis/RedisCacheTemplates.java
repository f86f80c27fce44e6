package io.adaptivecache.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

import java.util.concurrent.TimeUnit;

import io.adaptivecache.command.AbstractCacheTemplateBuilder;
import io.adaptivecache.command.CacheBackend;
import io.adaptivecache.command.CacheInputRules;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;

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

    private static final RedisCacheCommands COMMANDS = new RedisCacheCommands();

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
    public static final class Builder extends AbstractCacheTemplateBuilder<Builder, StatefulRedisConnection<String, byte[]>> {

        private RedisURI uri = RedisURI.create("redis://127.0.0.1:6379");
        private Duration commandTimeout = Duration.ofSeconds(1);
        private Duration connectTimeout = Duration.ofSeconds(2);
        private int requestQueueSize = 8192;
        private int maxKeyBytes = 16 * 1024;
        private int maxValueBytes = 512 * 1024 * 1024;
        private ClientResources resources;
        private Duration maxReconnectDelay = Duration.ofSeconds(2);
        private Consumer<ClientResources.Builder> resourcesCustomizer = resources -> {
        };
        private Consumer<ClientOptions.Builder> optionsCustomizer = options -> {
        };

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
            Objects.requireNonNull(uri, "uri");
            try {
                return uri(RedisURI.create(uri));
            }
            catch (IllegalArgumentException ex) {
                // Never echo a password: the URI's user-info part is masked, and Lettuce's own message dropped.
                throw new IllegalArgumentException("Malformed Redis URI '" + uri.replaceAll("(?<=://)[^@/]*@", "****@")
                        + "': expected redis://[user:password@]host:port[/database] or rediss://...");
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
         * Longest wait between reconnect attempts after a connection is lost (the waits grow
         * exponentially from 10 ms up to this); default 2 s, so that a restarted server is found
         * again within seconds rather than Lettuce's default of up to 30 s. Applies only when
         * this builder creates the client resources.
         * @param maxReconnectDelay positive
         * @return this builder
         */
        public Builder maxReconnectDelay(Duration maxReconnectDelay) {
            this.maxReconnectDelay = positive(maxReconnectDelay, "max reconnect delay");
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

        @Override
        protected CacheBackend<StatefulRedisConnection<String, byte[]>> backend() {
            CacheInputRules rules = CacheInputRules.builder("Redis").maxKeyBytes(maxKeyBytes).maxValueBytes(maxValueBytes).build();
            boolean ownsResources = resources == null;
            ClientResources clientResources = resources;
            if (ownsResources) {
                DefaultClientResources.Builder builder = DefaultClientResources.builder()
                        .reconnectDelay(Delay.exponential(Duration.ofMillis(10), maxReconnectDelay, 2, TimeUnit.MILLISECONDS));
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
            RedisConnections connections = new RedisConnections(client, target);
            ClientResources shutDownOnClose = ownsResources ? clientResources : null;
            return CacheBackend.of("redis", connections, COMMANDS, rules, new RedisExceptionTranslator(connections.describe()),
                    commandTimeout, () -> {
                        client.shutdown(0, 2, TimeUnit.SECONDS);
                        if (shutDownOnClose != null) {
                            shutDownOnClose.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
                        }
                    });
        }
    }
}
