package io.adaptivecache.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.internal.Arguments;
import io.adaptivecache.template.AbstractCacheTemplateBuilder;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * The settings every Lettuce-based template shares, whether it talks to one server
 * ({@link RedisCacheTemplates}) or to a cluster ({@link RedisClusterCacheTemplates}): timeouts,
 * the request queue bound, input limits, client resources and options.
 *
 * <p>Defaults fit a cache: TCP_NODELAY on; a 1 s command timeout on a timer that ticks every 10 ms
 * (Lettuce's 100 ms tick keeps every completed command, value included, reachable for up to a tick); a
 * request queue bounded at 8,192 commands per connection; commands rejected at once (not
 * buffered) while a connection is down, so a dead server costs a fast error rather than a
 * growing heap; automatic reconnection.
 *
 * @param <B> the builder's own type
 */
public abstract class AbstractRedisTemplateBuilder<B extends AbstractRedisTemplateBuilder<B>> extends AbstractCacheTemplateBuilder<B> {

    /** The command-timeout timer's tick (Lettuce's default is 100 ms); see {@link #clientResources()}. */
    static final long TIMER_TICK_MILLIS = 10;

    private Duration commandTimeout = Duration.ofSeconds(1);
    private int requestQueueSize = 8192;
    private int maxKeyBytes = 16 * 1024;
    private int maxValueBytes = 512 * 1024 * 1024;
    // The application's shared resources, if it gave some; otherwise this builder creates (and owns) them.
    private @Nullable ClientResources resources;
    private @Nullable HashedWheelTimer ownedTimer;
    private Duration maxReconnectDelay = Duration.ofSeconds(2);
    private RedisTransport transport = RedisTransport.AUTO;
    private Consumer<ClientResources.Builder> resourcesCustomizer = resources -> {
    };
    private Consumer<ClientOptions.Builder> optionsCustomizer = options -> {
    };
    private @Nullable String credentialsSource;
    /** Coalesces and counts the writes of the channels of the resources this builder creates; see {@link #coalesceWrites}. */
    final ChannelWrites channelWrites = new ChannelWrites();

    /**
     * Creates a builder.
     * @param defaultName the template's name unless {@link #name} sets another
     */
    protected AbstractRedisTemplateBuilder(String defaultName) {
        super(defaultName);
    }

    /**
     * Longest wait between reconnect attempts after a connection is lost (the waits grow
     * exponentially from 10 ms up to this); default 2 s, so that a restarted server is found
     * again within seconds rather than Lettuce's default of up to 30 s. Applies only when
     * this builder creates the client resources.
     * @param maxReconnectDelay positive
     * @return this builder
     */
    public B maxReconnectDelay(Duration maxReconnectDelay) {
        this.maxReconnectDelay = positive(maxReconnectDelay, "max reconnect delay");
        return self();
    }

    /**
     * The network transport: {@link RedisTransport#AUTO} (the default) takes io_uring, then
     * epoll, then NIO, by what the machine and classpath support. Lettuce has one transport per
     * JVM, chosen when its first client starts; see {@link RedisTransport#select}.
     * @param transport the transport
     * @return this builder
     */
    public B transport(RedisTransport transport) {
        this.transport = Objects.requireNonNull(transport, "transport");
        return self();
    }

    /**
     * Whether the commands that concurrent callers send on one connection at about the same moment
     * go to the server in one socket write (default on): Lettuce alone writes and flushes each
     * command on its own, a system call per command on the client and a read per command on the
     * server. Nothing waits for company: a flush goes out in the same turn of the connection's
     * event loop, after the writes already queued to it, so a lone caller's command leaves at
     * once. {@link RedisWrites#of} shows the commands per write. Applies only when this builder
     * creates the client resources.
     * @param coalesceWrites {@code false} to flush every command on its own
     * @return this builder
     */
    public B coalesceWrites(boolean coalesceWrites) {
        this.channelWrites.coalesce(coalesceWrites);
        return self();
    }

    /**
     * How long a command may take, on Lettuce's own timer; default 1 s.
     * @param commandTimeout positive
     * @return this builder
     */
    public B commandTimeout(Duration commandTimeout) {
        this.commandTimeout = positive(commandTimeout, "command timeout");
        return self();
    }

    /**
     * Most commands queued or in flight per connection before new ones fail at once;
     * default 8,192.
     * @param requestQueueSize at least 1
     * @return this builder
     */
    public B requestQueueSize(int requestQueueSize) {
        this.requestQueueSize = Arguments.atLeast(requestQueueSize, 1, "The request queue size");
        return self();
    }

    /**
     * The longest key accepted, in UTF-8 bytes; default 16 KiB.
     * @param maxKeyBytes at least 1
     * @return this builder
     */
    public B maxKeyBytes(int maxKeyBytes) {
        this.maxKeyBytes = maxKeyBytes;
        return self();
    }

    /**
     * The largest value accepted, in bytes; default 512 MiB (Redis's own limit).
     * @param maxValueBytes at least 1
     * @return this builder
     */
    public B maxValueBytes(int maxValueBytes) {
        this.maxValueBytes = maxValueBytes;
        return self();
    }

    /**
     * Client resources to share with other clients; the template will not shut them down.
     * By default the template creates its own and shuts them down on close.
     * @param resources the resources
     * @return this builder
     */
    public B clientResources(ClientResources resources) {
        this.resources = Objects.requireNonNull(resources, "resources");
        return self();
    }

    /**
     * Adjusts the client resources the template creates for itself (ignored when
     * {@link #clientResources(ClientResources)} supplies shared ones).
     * @param customizer receives the resources builder
     * @return this builder
     */
    public B clientResources(Consumer<ClientResources.Builder> customizer) {
        this.resourcesCustomizer = this.resourcesCustomizer.andThen(Objects.requireNonNull(customizer, "customizer"));
        return self();
    }

    /**
     * Adjusts Lettuce's client options after the defaults are applied; for a cluster the
     * builder passed is a {@link io.lettuce.core.cluster.ClusterClientOptions.Builder}.
     * @param customizer receives the options builder
     * @return this builder
     */
    public B clientOptions(Consumer<ClientOptions.Builder> customizer) {
        this.optionsCustomizer = this.optionsCustomizer.andThen(Objects.requireNonNull(customizer, "customizer"));
        return self();
    }

    /**
     * Where the credentials were configured, such as the properties that set them, named by
     * the {@link io.adaptivecache.CacheAuthenticationException} thrown when the server refuses
     * them (a description, never the credentials themselves); by default the message asks to
     * check the user name and password the template was given.
     * @param credentialsSource for example {@code adaptive-cache.redis.username and adaptive-cache.redis.password}
     * @return this builder
     */
    public B credentialsSource(String credentialsSource) {
        this.credentialsSource = Objects.requireNonNull(credentialsSource, "credentialsSource");
        return self();
    }

    /**
     * Reads the server's refusals of the credentials (at connect, to a command, or of a
     * reconnect) as {@link io.adaptivecache.CacheAuthenticationException}s naming the user and
     * {@link #credentialsSource(String)}. Reconnects are followed on resources this builder
     * created; shared ones carry other clients' events too.
     */
    final RedisAuthentication authentication(String address, io.lettuce.core.RedisURI uri, ClientResources clientResources) {
        RedisAuthentication authentication = new RedisAuthentication(address, uri, this.credentialsSource);
        if (clientResources != this.resources) {
            authentication.watch(clientResources.eventBus());
        }
        return authentication;
    }

    /** The request queue bound set, named when a queue is full. */
    final int requestQueueSize() {
        return this.requestQueueSize;
    }

    /**
     * The command timeout set.
     * @return the timeout
     */
    protected final Duration commandTimeout() {
        return this.commandTimeout;
    }


    /**
     * The input rules from the key and value limits set.
     * @return the rules
     */
    protected final CacheInputRules inputRules() {
        return CacheInputRules.builder("Redis").maxKeyBytes(this.maxKeyBytes).maxValueBytes(this.maxValueBytes).build();
    }

    /**
     * The client resources to use: the shared ones given, or new ones that {@link #shutdown}
     * releases; the transport is selected first.
     * @return the resources
     */
    protected final ClientResources clientResources() {
        RedisTransport.select(this.transport);
        if (this.resources != null) {
            return this.resources;
        }
        // Lettuce puts every command on this timer for its timeout, and a completed command (with its
        // value) stays reachable from the wheel until the next tick drops its cancelled timeout.
        // Lettuce's default tick of 100 ms kept 100 ms of traffic alive: at 17k calls/s of 100 KiB,
        // about 170 MB at every young collection, more than the survivor spaces hold, promoted to
        // the old generation and collected there at a cost that grew until calls slowed 3-5x.
        // A 10 ms tick keeps a tenth of it; the timer thread waking 100 times a second costs nothing
        // measurable.
        HashedWheelTimer timer = new HashedWheelTimer(new DefaultThreadFactory("adaptive-cache-timeouts", true), TIMER_TICK_MILLIS,
                TimeUnit.MILLISECONDS);
        this.ownedTimer = timer;
        DefaultClientResources.Builder builder = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(10), this.maxReconnectDelay, 2, TimeUnit.MILLISECONDS))
                .timer(timer)
                // Lettuce's encoder logs each command's bytes at TRACE, the handshake's password among them.
                .nettyCustomizer(NettyCustomizers.of(CredentialSafeCommandEncoder.customizer(), this.channelWrites.customizer()));
        this.resourcesCustomizer.accept(builder);
        return builder.build();
    }

    /**
     * Applies the defaults and then the user's customizers to client options.
     * @param options the (standalone or cluster) options builder
     * @param <O> its type
     * @return the same builder
     */
    protected final <O extends ClientOptions.Builder> O configure(O options) {
        options.autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .requestQueueSize(this.requestQueueSize)
                .socketOptions(SocketOptions.builder().tcpNoDelay(true).connectTimeout(connectTimeout()).build())
                .timeoutOptions(TimeoutOptions.enabled(this.commandTimeout));
        this.optionsCustomizer.accept(options);
        return options;
    }

    /**
     * What closing the backend does: shuts the client down, then the resources if this builder
     * created them.
     * @param client the client
     * @param clientResources the resources from {@link #clientResources()}
     * @return the close action
     */
    protected final Runnable shutdown(AbstractRedisClient client, ClientResources clientResources) {
        ClientResources owned = clientResources == this.resources ? null : clientResources;
        // Lettuce stops only a timer it created itself; this one is the builder's.
        HashedWheelTimer timer = owned == null ? null : this.ownedTimer;
        return () -> {
            client.shutdown(0, 2, TimeUnit.SECONDS);
            if (owned != null) {
                owned.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
            }
            if (timer != null) {
                timer.stop();
            }
        };
    }
}
