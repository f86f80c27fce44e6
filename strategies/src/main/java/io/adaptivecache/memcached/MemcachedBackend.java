package io.adaptivecache.memcached;

import java.time.Duration;

import io.adaptivecache.command.CacheBackend;
import io.adaptivecache.command.CacheCommands;
import io.adaptivecache.command.CacheInputRules;
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ExceptionTranslator;
import net.spy.memcached.MemcachedClient;

/** The memcached {@link CacheBackend}: spymemcached clients and the deadline sweeper they share. */
final class MemcachedBackend implements CacheBackend<MemcachedClient> {

    private final MemcachedConnections connections;
    private final MemcachedCacheCommands commands;
    private final CacheInputRules rules;
    private final OperationDeadlines deadlines;
    private final ExceptionTranslator translator;
    private final Duration operationTimeout;

    MemcachedBackend(MemcachedConnections connections, MemcachedProtocol protocol, CacheInputRules rules,
            Duration operationTimeout) {
        this.connections = connections;
        this.rules = rules;
        this.operationTimeout = operationTimeout;
        this.deadlines = new OperationDeadlines(operationTimeout.toNanos(), connections.describe());
        this.commands = new MemcachedCacheCommands(protocol, deadlines, () -> System.currentTimeMillis() / 1000);
        this.translator = new MemcachedExceptionTranslator(connections.describe());
    }

    @Override
    public String kind() {
        return "memcached";
    }

    @Override
    public ConnectionFactory<MemcachedClient> connections() {
        return connections;
    }

    @Override
    public CacheCommands<MemcachedClient> commands() {
        return commands;
    }

    @Override
    public CacheInputRules inputRules() {
        return rules;
    }

    @Override
    public ExceptionTranslator exceptionTranslator() {
        return translator;
    }

    @Override
    public Duration commandTimeout() {
        return operationTimeout;
    }

    /** Stops the sweeper, failing any call a closed client left unanswered. */
    @Override
    public void close() {
        deadlines.close();
    }
}
