package io.adaptivecache.autoconfigure;

import java.util.Arrays;

import io.adaptivecache.autoconfigure.endpoint.AdaptiveCacheEndpointAutoConfiguration;
import io.adaptivecache.autoconfigure.health.AdaptiveCacheHealthContributorAutoConfiguration;
import io.adaptivecache.autoconfigure.metrics.AdaptiveCacheMetricsAutoConfiguration;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The context runners the auto-configuration tests start from, so that each test class states
 * only what it adds to them: always {@link AdaptiveCacheAutoConfiguration} (the templates), plus
 * the auto-configurations a class tests, pointed at that class's own test servers.
 */
public final class ContextRunners {

    private ContextRunners() {
    }

    /**
     * The templates' auto-configuration and {@code more}, with Redis and memcached at the given
     * test servers.
     *
     * @param redis the Redis test server {@code adaptive-cache.redis.url} points at
     * @param memcached the memcached test server {@code adaptive-cache.memcached.servers} lists
     * @param more further auto-configurations the test needs
     * @return a runner to add the test's own beans and properties to
     */
    public static ApplicationContextRunner onBothServers(RedisServerExtension redis, MemcachedServerExtension memcached,
            Class<?>... more) {
        return templatesWith(more).withPropertyValues("adaptive-cache.redis.url=" + redis.uri(),
                "adaptive-cache.memcached.servers=" + memcached.addresses());
    }

    /**
     * The templates' auto-configuration and {@code more}, with Redis at the given test server and
     * no memcached template (none is made without servers).
     *
     * @param redis the Redis test server {@code adaptive-cache.redis.url} points at
     * @param more further auto-configurations the test needs
     * @return a runner to add the test's own beans and properties to
     */
    public static ApplicationContextRunner onRedis(RedisServerExtension redis, Class<?>... more) {
        return templatesWith(more).withPropertyValues("adaptive-cache.redis.url=" + redis.uri());
    }

    /**
     * The templates' auto-configuration with the metrics, endpoint and health ones, memcached off:
     * the actuator side of one Redis template (the test names the Redis it uses).
     *
     * @return a runner to add the test's Redis, beans and properties to
     */
    public static ApplicationContextRunner redisWithActuator() {
        return templatesWith(AdaptiveCacheMetricsAutoConfiguration.class, AdaptiveCacheEndpointAutoConfiguration.class,
                AdaptiveCacheHealthContributorAutoConfiguration.class).withPropertyValues("adaptive-cache.memcached.enabled=false");
    }

    private static ApplicationContextRunner templatesWith(Class<?>... more) {
        Class<?>[] all = Arrays.copyOf(more, more.length + 1);
        all[more.length] = AdaptiveCacheAutoConfiguration.class;
        return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(all));
    }
}
