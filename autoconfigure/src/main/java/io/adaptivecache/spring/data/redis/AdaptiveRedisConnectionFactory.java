package io.adaptivecache.spring.data.redis;

import java.util.Objects;

import io.adaptivecache.call.CallObserver;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.RedisConnectionLeases;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;

/**
 * A Spring Data Redis {@link RedisConnectionFactory} over a standalone adaptive-cache Redis
 * template's connections: {@code RedisTemplate}, {@code StringRedisTemplate} and the code built
 * on them (repositories, Spring Session) run on the template's live strategy, SINGLE, MULTI(N)
 * or POOLED, follow its switches without a failed call, and show in its sensors, metrics and
 * Actuator endpoint.
 *
 * <p>Each {@link #getConnection()} is a Spring Data {@link LettuceConnection} whose shared native
 * connection is the live strategy: each command leases the connection the strategy chooses and
 * gives it back when its reply arrives, so a switch drains Spring Data's commands as it drains
 * the template's calls. As with {@code LettuceConnectionFactory}'s shared connection, what must
 * not share a connection runs on one of its own: transactions ({@code multi}/{@code exec}),
 * pipelines, blocking commands (BLPOP and friends) and subscriptions; selecting another database
 * is refused. Those dedicated connections are opened per use with the template's client and are
 * not the strategy's: a switch does not move them. {@code subscribe} blocks until the subscription
 * ends, as Spring Data documents it (and as its listener container expects of any factory but
 * {@code LettuceConnectionFactory}).
 *
 * <p>The template owns every connection: this factory has no lifecycle of its own, and serves
 * commands while the template runs (started with the application context, closed with it). Made
 * from the template, it starts the template itself if a command arrives before anything has
 * started it, as {@code LettuceConnectionFactory} connects on first use: code built on Spring Data
 * may send commands while the context is built (Spring Session's indexed repository sets
 * {@code notify-keyspace-events} from an initializing bean).
 */
public final class AdaptiveRedisConnectionFactory implements RedisConnectionFactory {

    private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

    private final RedisConnectionLeases leases;
    private final LeasedConnection shared;
    private final DedicatedConnections dedicated;
    private final long timeoutMillis;

    /**
     * Creates a factory over a template's connections, telling its sensors of every command sent on them. A command
     * sent before the template has started starts it (under the template's monitor; once it has been seen running it
     * is never started again here, so a closed template stays closed).
     * @param template a standalone Redis template from {@code RedisCacheTemplates}, on Lettuce alone
     * @throws IllegalArgumentException if the template is a cluster's, runs POOLED on Jedis, or was not built by {@code RedisCacheTemplates}
     */
    public AdaptiveRedisConnectionFactory(ManagedCacheTemplate template) {
        this(RedisCacheTemplates.connectionLeases(Objects.requireNonNull(template, "template")), template.sensors(),
                new FirstUseStart(template));
    }

    /**
     * Creates a factory over a template's connections, which serves commands only once the template has been started.
     * @param leases the template's connections, from {@link RedisCacheTemplates#connectionLeases}
     * @param observer told of every command sent on the strategy's connections (usually the template's sensors)
     */
    public AdaptiveRedisConnectionFactory(RedisConnectionLeases leases, CallObserver observer) {
        this(leases, observer, FirstUseStart.NONE);
    }

    private AdaptiveRedisConnectionFactory(RedisConnectionLeases leases, CallObserver observer, FirstUseStart firstUse) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.shared = new LeasedConnection(leases, Objects.requireNonNull(observer, "observer"), firstUse);
        this.dedicated = new DedicatedConnections(leases);
        this.timeoutMillis = leases.commandTimeout().toMillis();
    }

    @Override
    public RedisConnection getConnection() {
        return new SubscribingConnection(this.shared, this.dedicated, this.timeoutMillis, this.leases.database());
    }

    /** Refused: the template is a standalone server's. */
    @Override
    public RedisClusterConnection getClusterConnection() {
        throw new InvalidDataAccessApiUsageException("The template's connections go to a standalone server, " + this.leases.describe()
                + ", not to a cluster");
    }

    /** Refused: the template is a standalone server's. */
    @Override
    public RedisSentinelConnection getSentinelConnection() {
        throw new InvalidDataAccessApiUsageException("The template's connections go to a standalone server, " + this.leases.describe()
                + ", not to Sentinel");
    }

    /** As {@code LettuceConnectionFactory}'s default: pipeline and transaction results are converted. */
    @Override
    public boolean getConvertPipelineAndTxResults() {
        return true;
    }

    @Override
    public @Nullable DataAccessException translateExceptionIfPossible(RuntimeException ex) {
        return EXCEPTIONS.translateExceptionIfPossible(ex);
    }

    @Override
    public String toString() {
        return "AdaptiveRedisConnectionFactory to " + this.leases.describe();
    }
}
