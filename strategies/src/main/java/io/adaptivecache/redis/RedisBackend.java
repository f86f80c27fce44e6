package io.adaptivecache.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.command.CacheBackend;
import io.adaptivecache.command.CacheCommands;
import io.adaptivecache.command.CacheInputRules;
import io.adaptivecache.strategy.ConnectionFactory;
import io.adaptivecache.strategy.ExceptionTranslator;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;

/** The Redis {@link CacheBackend}: one {@link RedisClient} and the resources it runs on. */
final class RedisBackend implements CacheBackend<StatefulRedisConnection<String, byte[]>> {

    private static final RedisCacheCommands COMMANDS = new RedisCacheCommands();

    private final RedisClient client;
    private final ClientResources resources;
    private final boolean ownsResources;
    private final RedisConnections connections;
    private final CacheInputRules rules;
    private final ExceptionTranslator translator;
    private final Duration commandTimeout;

    RedisBackend(RedisClient client, ClientResources resources, boolean ownsResources, RedisConnections connections,
            CacheInputRules rules, Duration commandTimeout) {
        this.client = client;
        this.resources = resources;
        this.ownsResources = ownsResources;
        this.connections = connections;
        this.rules = rules;
        this.translator = new RedisExceptionTranslator(connections.describe());
        this.commandTimeout = commandTimeout;
    }

    @Override
    public String kind() {
        return "redis";
    }

    @Override
    public ConnectionFactory<StatefulRedisConnection<String, byte[]>> connections() {
        return connections;
    }

    @Override
    public CacheCommands<StatefulRedisConnection<String, byte[]>> commands() {
        return COMMANDS;
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
        return commandTimeout;
    }

    @Override
    public void close() {
        client.shutdown(0, 2, TimeUnit.SECONDS);
        if (ownsResources) {
            resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        }
    }
}
