package io.adaptivecache.memcached;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.backend.CacheInputRules;
import io.adaptivecache.internal.Arguments;
import io.adaptivecache.template.AbstractCacheTemplateBuilder;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.FailureMode;
import net.spy.memcached.auth.AuthDescriptor;
import net.spy.memcached.ops.ArrayOperationQueueFactory;
import org.jspecify.annotations.Nullable;

/**
 * Builds {@link io.adaptivecache.management.ManagedCacheTemplate}s over memcached: a
 * {@link io.adaptivecache.CacheTemplate} to call, with the management a lifecycle, a switcher and
 * metrics need.
 *
 * <pre>{@code
 * ManagedCacheTemplate cache = MemcachedCacheTemplates.builder()
 *         .servers("10.0.0.1:11211:3, 10.0.0.2:11211, 10.0.0.3:11211")   // weighted 3,1,1
 *         .strategy(StrategySpec.multi())
 *         .start();
 * }</pre>
 *
 * <p>Defaults fit a cache, each overridable: the binary protocol (see {@link MemcachedProtocol});
 * ketama consistent hashing ({@code KETAMA_HASH}, libketama-compatible for servers given as IP
 * literals) with optional weights; TCP_NODELAY; a 1 s operation timeout (spymemcached's is
 * 2.5 s); operation queues bounded at 8,192 per client that fail at once when full (spymemcached
 * would block the caller for 10 s); failure mode Cancel, so a call to a dead server fails fast;
 * daemon I/O threads; logging through SLF4J; values up to the server's item size less the item
 * header, so a value the server would refuse never reaches it.
 *
 * <p>The client library is spymemcached unless {@link Builder#driver(MemcachedDriver)} says
 * XMemcached; both store values the same way, so either reads what the other wrote. XMemcached
 * is optional ({@code com.googlecode.xmemcached:xmemcached}): a spymemcached template never
 * loads its classes.
 */
public final class MemcachedCacheTemplates {

    /** Room for memcached's item header, CAS, flags and the longest key inside one item. */
    static final int ITEM_OVERHEAD_BYTES = 512;

    private MemcachedCacheTemplates() {
    }

    /**
     * Starts a builder.
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Timeouts in a row after which spymemcached drops and reopens a connection. */
    private static final int TIMEOUTS_BEFORE_RECONNECT = 100;

    /** Builds a memcached template; not thread-safe, use once. */
    public static final class Builder extends AbstractCacheTemplateBuilder<Builder> {

        private List<MemcachedServerAddress> servers = List.of(new MemcachedServerAddress("127.0.0.1", 11211, 1));
        private MemcachedProtocol protocol = MemcachedProtocol.BINARY;
        private Duration operationTimeout = Duration.ofSeconds(1);
        private Duration maxReconnectDelay = Duration.ofSeconds(2);
        private int operationQueueSize = 8192;
        private int itemSizeMaxBytes = 1024 * 1024;
        // Both set for SASL, neither without.
        private @Nullable String username;
        private @Nullable String password;
        private MemcachedDriver driver = MemcachedDriver.SPYMEMCACHED;
        private Consumer<ConnectionFactoryBuilder> customizer = builder -> {
        };
        // No default lambda: one typed on XMemcached's builder would load XMemcached with this builder.
        private Consumer<XMemcachedClientBuilder> xmemcachedCustomizer;

        private Builder() {
            super("memcached");
        }

        /**
         * The servers, as {@code host:port[:weight]} separated by commas; default {@code 127.0.0.1:11211}.
         * @param servers the list
         * @return this builder
         * @throws IllegalArgumentException naming a malformed entry
         */
        public Builder servers(String servers) {
            return servers(MemcachedServerAddress.parseList(servers));
        }

        /**
         * The servers.
         * @param servers at least one
         * @return this builder
         */
        public Builder servers(List<MemcachedServerAddress> servers) {
            if (servers == null || servers.isEmpty()) {
                throw new IllegalArgumentException("At least one memcached server is needed");
            }
            this.servers = List.copyOf(servers);
            return this;
        }

        /**
         * The wire protocol; default {@link MemcachedProtocol#BINARY}.
         * @param protocol the protocol
         * @return this builder
         */
        public Builder protocol(MemcachedProtocol protocol) {
            this.protocol = Objects.requireNonNull(protocol, "protocol");
            return this;
        }

        /**
         * How long an operation may take before its caller gets a timeout; default 1 s.
         * @param operationTimeout positive
         * @return this builder
         */
        public Builder operationTimeout(Duration operationTimeout) {
            this.operationTimeout = positive(operationTimeout, "operation timeout");
            return this;
        }

        /**
         * Longest pause between reconnection attempts to a server that went away; default 2 s
         * (spymemcached's is 30 s). Whole seconds, at least 1.
         * @param maxReconnectDelay at least 1 s
         * @return this builder
         */
        public Builder maxReconnectDelay(Duration maxReconnectDelay) {
            if (maxReconnectDelay == null || maxReconnectDelay.getSeconds() < 1) {
                throw new IllegalArgumentException("The max reconnect delay must be at least 1 s, was " + maxReconnectDelay);
            }
            this.maxReconnectDelay = maxReconnectDelay;
            return this;
        }

        /**
         * The client library; default {@link MemcachedDriver#SPYMEMCACHED}.
         * {@link MemcachedDriver#XMEMCACHED} needs {@code com.googlecode.xmemcached:xmemcached}
         * on the class path.
         * @param driver the driver
         * @return this builder
         */
        public Builder driver(MemcachedDriver driver) {
            this.driver = Objects.requireNonNull(driver, "driver");
            return this;
        }

        /**
         * Most operations waiting per client (each of the input and write queues); more fail at
         * once; default 8,192. spymemcached only: on XMemcached each caller waits for its own
         * reply, so no more operations are in flight than there are callers.
         * @param operationQueueSize at least 1
         * @return this builder
         */
        public Builder operationQueueSize(int operationQueueSize) {
            this.operationQueueSize = Arguments.atLeast(operationQueueSize, 1, "The operation queue size");
            return this;
        }

        /**
         * The servers' item size limit (memcached's {@code -I}); values are limited to this
         * less room for the item header; default 1 MiB.
         * @param itemSizeMaxBytes at least 1 KiB
         * @return this builder
         */
        public Builder itemSizeMax(int itemSizeMaxBytes) {
            this.itemSizeMaxBytes = Arguments.atLeast(itemSizeMaxBytes, 1024, "memcached's item size limit in bytes");
            return this;
        }

        /**
         * SASL credentials (binary protocol and the spymemcached driver only).
         * @param username the user
         * @param password the password
         * @return this builder
         */
        public Builder credentials(String username, String password) {
            this.username = Objects.requireNonNull(username, "username");
            this.password = Objects.requireNonNull(password, "password");
            return this;
        }

        /**
         * Adjusts each client's spymemcached {@link ConnectionFactoryBuilder} after the defaults.
         * @param customizer receives the builder
         * @return this builder
         */
        public Builder connectionFactory(Consumer<ConnectionFactoryBuilder> customizer) {
            this.customizer = this.customizer.andThen(Objects.requireNonNull(customizer, "customizer"));
            return this;
        }

        /**
         * Adjusts each XMemcached client's builder after the defaults (for the XMemcached driver).
         * @param customizer receives the builder
         * @return this builder
         */
        public Builder xmemcachedClient(Consumer<XMemcachedClientBuilder> customizer) {
            Objects.requireNonNull(customizer, "customizer");
            this.xmemcachedCustomizer = this.xmemcachedCustomizer == null ? customizer : this.xmemcachedCustomizer.andThen(customizer);
            return this;
        }

        /**
         * The backend on the driver chosen, with that driver's own client as the connection.
         * @throws IllegalStateException if the XMemcached driver is chosen without its jar
         */
        @Override
        protected CacheBackend<?> backend() {
            if (username != null && !protocol.supportsSasl()) {
                throw new IllegalArgumentException("SASL authentication needs the binary protocol; set protocol to BINARY");
            }
            CacheInputRules rules = CacheInputRules.builder("memcached").maxKeyBytes(250).printableKeysOnly(true)
                    .maxValueBytes(itemSizeMaxBytes - ITEM_OVERHEAD_BYTES).maxTtl(MemcachedExpiry.maxTtl(Instant.now()))
                    .build();
            if (username != null && !driver.supportsSasl()) {
                throw new IllegalArgumentException("SASL authentication needs the spymemcached driver: XMemcached's SASL did not "
                        + "authenticate against memcached's own (sasldb) in this project's tests");
            }
            if (driver == MemcachedDriver.XMEMCACHED) {
                requireXMemcached();
                return XMemcachedBackend.of(servers, protocol, operationTimeout, connectTimeout(), maxReconnectDelay, xmemcachedCustomizer,
                        rules);
            }
            SpymemcachedConnections connections = new SpymemcachedConnections(servers, this::configure, connectTimeout(), username);
            OperationDeadlines deadlines = new OperationDeadlines(operationTimeout.toNanos(), connections.describe());
            SpymemcachedCacheCommands commands = new SpymemcachedCacheCommands(protocol, deadlines);
            // Closing the sweeper fails any call a closed client left unanswered.
            return CacheBackend.of("memcached", connections, CacheCommands.of(commands), rules,
                    new SpymemcachedExceptionTranslator(connections.describe(), operationQueueSize), operationTimeout, deadlines::close);
        }

        /** Looks XMemcached up without loading it, so that its absence reads as the dependency to add. */
        private static void requireXMemcached() {
            try {
                Class.forName(XMemcachedBackend.CLIENT_CLASS, false, MemcachedCacheTemplates.class.getClassLoader());
            }
            catch (ClassNotFoundException | LinkageError ex) {
                throw new IllegalStateException("The XMemcached driver needs com.googlecode.xmemcached:xmemcached on the class path: "
                        + "add that dependency to use it, or keep the default driver, spymemcached", ex);
            }
        }

        private void configure(ConnectionFactoryBuilder builder) {
            builder.setProtocol(protocol == MemcachedProtocol.BINARY ? ConnectionFactoryBuilder.Protocol.BINARY
                            : ConnectionFactoryBuilder.Protocol.TEXT)
                    .setLocatorType(ConnectionFactoryBuilder.Locator.CONSISTENT)
                    .setHashAlg(DefaultHashAlgorithm.KETAMA_HASH)
                    .setUseNagleAlgorithm(false)
                    .setOpTimeout(operationTimeout.toMillis())
                    .setOpQueueFactory(new ArrayOperationQueueFactory(operationQueueSize))
                    .setWriteOpQueueFactory(new ArrayOperationQueueFactory(operationQueueSize))
                    .setOpQueueMaxBlockTime(0)
                    // spymemcached reopens a connection after this many of its own timeouts in a row; the calls OperationDeadlines
                    // fails are not counted toward it (see there).
                    .setTimeoutExceptionThreshold(TIMEOUTS_BEFORE_RECONNECT)
                    .setFailureMode(FailureMode.Cancel)
                    .setMaxReconnectDelay(maxReconnectDelay.getSeconds())
                    .setDaemon(true)
                    // The gets queued on a connection go as one request; stores are never merged (GetMergingBinaryNode).
                    .setShouldOptimize(true)
                    .setListenerExecutorService(InlineExecutorService.INSTANCE);
            if (username != null) {
                builder.setAuthDescriptor(AuthDescriptor.typical(username, password));
            }
            customizer.accept(builder);
        }
    }
}
