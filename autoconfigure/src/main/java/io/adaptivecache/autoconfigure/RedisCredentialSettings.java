package io.adaptivecache.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Which properties gave the Redis template its credentials (named when the server refuses
 * them), and the warning that adaptive-cache.redis.url overrides the properties it replaces.
 * Follows the same rules as {@link RedisCacheTemplateConfiguration#redisUri} and
 * {@link RedisClusterSettings#nodes}: the URL wins, then adaptive-cache.redis.*, then
 * spring.data.redis.* when no adaptive-cache.redis connection property is set.
 */
final class RedisCredentialSettings {

    private static final Log logger = LogFactory.getLog(RedisCredentialSettings.class);

    private static final String PREFIX = "adaptive-cache.redis";
    private static final String SPRING_PREFIX = "spring.data.redis";

    private RedisCredentialSettings() {
    }

    /**
     * The properties to check when the server refuses the credentials; names only, never values.
     * @param cluster whether the template is a cluster's (its nodes take adaptive-cache.redis.username and password; no URL)
     */
    static String source(AdaptiveCacheRedisProperties redis, Binder binder, boolean cluster) {
        if (cluster) {
            return !redis.getCluster().getNodes().isEmpty() ? pair(PREFIX) : pair(SPRING_PREFIX);
        }
        if (redis.getUrl() != null) {
            return PREFIX + ".url (its user:password@ part)";
        }
        if (!redis.hasConnectionSettings()) {
            if (binder.bind(SPRING_PREFIX + ".url", String.class).isBound()) {
                return SPRING_PREFIX + ".url (its user:password@ part)";
            }
            if (binder.bind(SPRING_PREFIX + ".host", String.class).isBound()
                    || binder.bind(SPRING_PREFIX + ".port", Integer.class).isBound()) {
                return pair(SPRING_PREFIX);
            }
        }
        return pair(PREFIX);
    }

    private static String pair(String prefix) {
        return prefix + ".username and " + prefix + ".password";
    }

    /**
     * Warns, once per template creation, when adaptive-cache.redis.url is set together with
     * properties it overrides (Spring Boot's rule: the URL wins). Names the properties, never
     * their values.
     * @return the ignored properties' names (empty when nothing is ignored)
     */
    static List<String> warnIgnoredByUrl(AdaptiveCacheRedisProperties redis) {
        List<String> ignored = new ArrayList<>();
        if (redis.getUrl() == null || !redis.getCluster().getNodes().isEmpty()) {
            return ignored;
        }
        add(ignored, "host", redis.getHost());
        add(ignored, "port", redis.getPort());
        add(ignored, "username", redis.getUsername());
        add(ignored, "password", redis.getPassword());
        add(ignored, "database", redis.getDatabase());
        add(ignored, "ssl.enabled", redis.getSsl().getEnabled());
        if (!ignored.isEmpty()) {
            logger.warn(PREFIX + ".url is set, so " + String.join(", ", ignored)
                    + (ignored.size() == 1 ? " is" : " are") + " ignored: the URL's own host, port, user:password@ part, database and"
                    + " scheme (rediss:// for TLS) apply. Put the credentials in the URL, or remove " + PREFIX
                    + ".url to use the separate properties.");
        }
        return ignored;
    }

    private static void add(List<String> ignored, String property, @Nullable Object value) {
        if (value != null) {
            ignored.add(PREFIX + "." + property);
        }
    }
}
