package io.adaptivecache.memcached;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.adaptivecache.backend.CacheBackend;
import io.adaptivecache.call.CacheCommands;
import io.adaptivecache.backend.CacheInputRules;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.command.BinaryCommandFactory;
import net.rubyeye.xmemcached.command.TextCommandFactory;
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator;

/**
 * The backend of a template on {@link MemcachedDriver#XMEMCACHED}. XMemcached is optional: this
 * class, loaded only when that driver is chosen, is where the builder's path to it starts, so
 * that a spymemcached template never loads an XMemcached class.
 */
final class XMemcachedBackend {

    /** A class present in every XMemcached jar, looked up before this class is loaded. */
    static final String CLIENT_CLASS = "net.rubyeye.xmemcached.XMemcachedClientBuilder";

    private XMemcachedBackend() {
    }

    /**
     * The backend: XMemcached clients with the settings the spymemcached clients get where both
     * have them: ketama, one connection per server (the strategy decides how many clients), one
     * reactor thread per client, TCP_NODELAY (XMemcached's default). Every call names the
     * raw-bytes transcoder; the client's default one stays, for the counter XMemcached creates
     * with {@code add} over text.
     * @param servers the servers and their weights
     * @param protocol the wire protocol
     * @param operationTimeout how long an operation may take
     * @param connectTimeout how long a new client may take to connect
     * @param maxReconnectDelay the pause between attempts to heal a lost session
     * @param customizer the user's adjustments to each client's builder, or {@code null} for none
     * @param rules the input the template accepts
     * @return the backend
     */
    static CacheBackend<MemcachedClient> of(List<MemcachedServerAddress> servers, MemcachedProtocol protocol, Duration operationTimeout,
            Duration connectTimeout, Duration maxReconnectDelay, Consumer<XMemcachedClientBuilder> customizer, CacheInputRules rules) {
        Consumer<XMemcachedClientBuilder> configuration = builder -> {
            builder.setCommandFactory(protocol == MemcachedProtocol.BINARY ? new BinaryCommandFactory() : new TextCommandFactory());
            builder.setSessionLocator(new KetamaMemcachedSessionLocator());
            builder.setConnectionPoolSize(1);
            builder.setSelectorPoolSize(1);
            builder.setOpTimeout(operationTimeout.toMillis());
            builder.setHealSessionInterval(maxReconnectDelay.toMillis());
            builder.setFailureMode(false);
            if (customizer != null) {
                customizer.accept(builder);
            }
        };
        XMemcachedConnections connections = new XMemcachedConnections(servers, configuration, connectTimeout);
        XMemcachedCacheCommands commands = new XMemcachedCacheCommands(operationTimeout, connections.describe());
        return CacheBackend.of("memcached", connections, CacheCommands.of(commands), rules, commands::translate, operationTimeout, () -> {
        });
    }
}
