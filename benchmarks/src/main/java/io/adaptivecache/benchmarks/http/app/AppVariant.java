package io.adaptivecache.benchmarks.http.app;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.adaptivecache.redis.RedisTransport;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;

/**
 * How the items application talks to Redis: what a user gets from spring-boot-starter-data-redis
 * and from adaptive-cache's starter, each with its defaults. The benchmarks module has both
 * starters (and more) on its class path, so each variant removes what its user would not have:
 * the other starter's auto-configurations, and for Boot's variants the native transports that
 * only adaptive-cache's starter brings.
 */
public enum AppVariant {

    /**
     * spring-boot-starter-data-redis with its defaults: Boot's {@code RedisCacheManager} (JDK
     * serialization) on a {@code LettuceConnectionFactory}, one shared connection, Java NIO.
     */
    SPRING_DEFAULTS("spring-boot-starter-data-redis defaults: Boot's RedisCacheManager on"
            + " LettuceConnectionFactory, one shared native connection, NIO, JDK serialization"),

    /**
     * The same with {@code spring.data.redis.lettuce.pool.enabled=true}: commons-pool2, 8 connections
     * at most. Boot leaves the factory's shared native connection on, as it does by default.
     */
    SPRING_POOL("the same with spring.data.redis.lettuce.pool.enabled=true (commons-pool2, max-active 8;"
            + " Boot keeps the shared native connection on)"),

    /** adaptive-cache's Spring cache with only the server's address: the adaptive template, JSON, io_uring where allowed. */
    ADAPTIVE("adaptive-cache's Spring cache with only adaptive-cache.redis.url: the adaptive template, JSON,"
            + " the fastest transport the machine allows"),

    /** The same with {@code adaptive-cache.cache.near.enabled=true}: a Caffeine tier in front, invalidated by Redis. */
    ADAPTIVE_NEAR("the same with adaptive-cache.cache.near.enabled=true (a local Caffeine tier kept"
            + " current by Redis's invalidations)");

    /** The argument that chooses the variant: {@code --items.variant=adaptive}. */
    public static final String VARIANT_PROPERTY = "items.variant";

    /** The arguments that give Redis's address: {@code --items.redis.host=127.0.0.1 --items.redis.port=6390}. */
    public static final String HOST_PROPERTY = "items.redis.host";

    /** See {@link #HOST_PROPERTY}. */
    public static final String PORT_PROPERTY = "items.redis.port";

    private static final String ADAPTIVE_AUTO_CONFIGURATIONS = "io.adaptivecache.";

    private static final String BOOT_REDIS_AUTO_CONFIGURATIONS = "org.springframework.boot.data.redis.";

    private final String description;

    AppVariant(String description) {
        this.description = description;
    }

    /** @return the id used on the command line and in reports, for example {@code spring-defaults}: the name in lower case, dashed */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @return what the variant runs, for reports */
    public String description() {
        return this.description;
    }

    /** @return whether this is one of adaptive-cache's variants */
    public boolean adaptive() {
        return this == ADAPTIVE || this == ADAPTIVE_NEAR;
    }

    /**
     * A variant by id.
     * @param id such as {@code adaptive-near}
     * @return the variant
     * @throws IllegalArgumentException for an unknown id
     */
    public static AppVariant of(String id) {
        for (AppVariant variant : values()) {
            if (variant.id().equals(id.trim().toLowerCase(Locale.ROOT))) {
                return variant;
            }
        }
        throw new IllegalArgumentException("Unknown variant '" + id + "'; known: "
                + java.util.Arrays.stream(values()).map(AppVariant::id).collect(Collectors.joining(", ")));
    }

    /**
     * The variant named among command-line arguments.
     * @param args arguments such as {@code --items.variant=adaptive}
     * @return the variant
     * @throws IllegalArgumentException if none is named
     */
    public static AppVariant fromArguments(String[] args) {
        String prefix = "--" + VARIANT_PROPERTY + "=";
        for (String arg : args) {
            if (arg.startsWith(prefix)) {
                return of(arg.substring(prefix.length()));
            }
        }
        throw new IllegalArgumentException("No " + prefix + "... among the arguments");
    }

    /**
     * The application's default properties in this variant: what a user of that starter would
     * write, and what removes the other starter. Redis's address comes from
     * {@link #HOST_PROPERTY} and {@link #PORT_PROPERTY}; arguments still override any of these.
     * @param classLoader where the auto-configurations to exclude are listed
     * @return property name to value
     */
    public Map<String, Object> properties(ClassLoader classLoader) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.application.name", "items-" + id());
        properties.put("server.address", "127.0.0.1");
        properties.put("server.port", "0");
        properties.put("spring.main.banner-mode", "off");
        String host = "${" + HOST_PROPERTY + "}";
        String port = "${" + PORT_PROPERTY + "}";
        if (adaptive()) {
            properties.put("adaptive-cache.redis.url", "redis://" + host + ":" + port);
            // The application has no memcached; the starter would make a template for the spymemcached on the class path.
            properties.put("adaptive-cache.memcached.enabled", "false");
            if (this == ADAPTIVE_NEAR) {
                properties.put("adaptive-cache.cache.near.enabled", "true");
            }
            properties.put("spring.autoconfigure.exclude", autoConfigurations(classLoader, BOOT_REDIS_AUTO_CONFIGURATIONS));
        }
        else {
            properties.put("spring.data.redis.host", host);
            properties.put("spring.data.redis.port", port);
            // Boot picks Redis by itself only when no other cache provider is present; Redisson's JCache provider is.
            properties.put("spring.cache.type", "redis");
            // Boot enables the pool by itself when commons-pool2 is present, which it is here but not with the starter alone.
            properties.put("spring.data.redis.lettuce.pool.enabled", Boolean.toString(this == SPRING_POOL));
            properties.put("spring.autoconfigure.exclude", autoConfigurations(classLoader, ADAPTIVE_AUTO_CONFIGURATIONS));
        }
        return properties;
    }

    /**
     * The Lettuce transport to fix before anything starts: for Boot's variants Java NIO, as with
     * spring-boot-starter-data-redis alone (Lettuce would otherwise take the native epoll or
     * io_uring transport that adaptive-cache's starter puts on this class path); none for
     * adaptive-cache's, whose starter chooses ({@code adaptive-cache.redis.transport}, auto by default).
     * @return the transport, or {@code null} to leave the choice to the starter
     */
    public @Nullable RedisTransport fixedTransport() {
        return adaptive() ? null : RedisTransport.NIO;
    }

    private static String autoConfigurations(ClassLoader classLoader, String prefix) {
        List<String> names = ImportCandidates.load(AutoConfiguration.class, classLoader).getCandidates().stream()
                .filter(name -> name.startsWith(prefix)).sorted().toList();
        if (names.isEmpty()) {
            throw new IllegalStateException("No auto-configuration " + prefix + "* on the class path to exclude");
        }
        return String.join(",", names);
    }
}
