package io.adaptivecache.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.net.ssl.SSLContext;

import io.adaptivecache.redis.RedisCacheTemplates;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Where the Redis template connects, resolved once from {@code adaptive-cache.redis.*}, or from
 * Spring Data Redis's {@code spring.data.redis.*} when no {@code adaptive-cache.redis} connection
 * setting is given: the server's URI (or a cluster's seed nodes), its credentials and TLS, the SSL
 * bundle, and the properties to name when the server refuses the credentials. The template
 * ({@link RedisCacheTemplateConfiguration}) and its near caches' invalidation source
 * ({@link RedisInvalidationSources}) both read this one value, so they cannot reach different
 * servers or trust different ones. Immutable: the URIs handed out are copies.
 *
 * <p>The rules: {@code adaptive-cache.redis.url} wins, then the separate
 * {@code adaptive-cache.redis.*} properties; {@code adaptive-cache.redis.cluster.nodes} (or
 * {@code spring.data.redis.cluster.nodes}) makes the template a cluster's, whose nodes take the
 * username, password, TLS and client name. An SSL bundle turns TLS on. The bundle itself is looked
 * up only when a connection is configured with it, as Spring Boot's own Lettuce configuration does.
 * Between the two sets of properties comes a Spring Boot {@code DataRedisConnectionDetails} bean
 * ({@code @ServiceConnection}, Docker Compose, or the application's own; read by
 * {@link DataRedisConnectionDetailsReader}), which gives its SSL bundle as an object rather than a
 * name. Redis Sentinel is refused wherever it is asked for: the template would otherwise reach
 * some other server.
 * Outside this package the value is only passed along: it carries credentials, so nothing here
 * prints or exposes them.
 */
public final class ResolvedRedisConnection {

    private static final Log logger = LogFactory.getLog(ResolvedRedisConnection.class);

    private static final String PREFIX = "adaptive-cache.redis";
    private static final String SPRING_PREFIX = "spring.data.redis";

    // Exactly one of these is set: the server of a standalone template, or the seed nodes of a cluster's.
    private final @Nullable RedisURI standaloneUri;
    private final List<RedisURI> clusterNodes;
    private final int maxRedirects;
    // At most one of these is set: a bundle named in the properties (looked up when used), or one a connection details bean gave.
    private final @Nullable String sslBundle;
    private final @Nullable SslBundle sslBundleObject;
    private final String credentialsSource;
    private final String source;
    private final boolean fromConnectionDetails;

    private ResolvedRedisConnection(@Nullable RedisURI standaloneUri, List<RedisURI> clusterNodes, int maxRedirects,
            @Nullable String sslBundle, String credentialsSource, String source) {
        this(standaloneUri, clusterNodes, maxRedirects, sslBundle, null, credentialsSource, source, false);
    }

    private ResolvedRedisConnection(@Nullable RedisURI standaloneUri, List<RedisURI> clusterNodes, int maxRedirects,
            @Nullable String sslBundle, @Nullable SslBundle sslBundleObject, String credentialsSource, String source,
            boolean fromConnectionDetails) {
        this.standaloneUri = standaloneUri;
        this.clusterNodes = List.copyOf(clusterNodes);
        this.maxRedirects = maxRedirects;
        this.sslBundle = sslBundle;
        this.sslBundleObject = sslBundleObject;
        this.credentialsSource = credentialsSource;
        this.source = source;
        this.fromConnectionDetails = fromConnectionDetails;
    }

    /**
     * The connection a Spring Boot connection details bean describes: a standalone server or a
     * cluster's seed nodes, whose credentials, TLS and SSL bundle came from the bean.
     * @param standaloneUri the server, or {@code null} for a cluster
     * @param clusterNodes the cluster's seed nodes, empty for a standalone server
     * @param sslBundle the bean's SSL bundle, or {@code null}
     * @param source names the bean, for the startup line and the messages
     */
    static ResolvedRedisConnection fromDetails(@Nullable RedisURI standaloneUri, List<RedisURI> clusterNodes,
            @Nullable SslBundle sslBundle, int maxRedirects, String source) {
        return new ResolvedRedisConnection(standaloneUri, clusterNodes, maxRedirects, null, sslBundle,
                "the credentials of " + source, source, true);
    }

    /**
     * Why Sentinel is refused, and what to do instead; the same words wherever it is asked for.
     * @param where what asked for it, such as a property's name
     * @return the message
     */
    static String sentinelRefusal(String where) {
        return "Redis Sentinel is not supported yet (" + where + "): configure the master's address (" + PREFIX + ".url, or "
                + PREFIX + ".host and port) instead, or disable the template (" + PREFIX + ".enabled=false)";
    }

    /**
     * Resolves the connection from the properties (checked when bound) and, when they give no
     * connection setting, Spring Data Redis's, checking the latter here. Warns once when
     * {@code adaptive-cache.redis.url} overrides properties that are also set.
     * @throws InvalidAdaptiveCachePropertyException naming a property whose value cannot be used
     */
    static ResolvedRedisConnection resolve(AdaptiveCacheRedisProperties redis, Binder binder) {
        boolean springSettings = !redis.hasConnectionSettings();
        if (springSettings) {
            refuseSpringSentinel(binder);
        }
        String bundle = redis.getSsl().bundle();
        if (bundle == null && springSettings) {
            bundle = binder.bind(SPRING_PREFIX + ".ssl.bundle", String.class).orElse(null);
        }
        List<String> ourNodes = redis.getCluster().nodes();
        if (!ourNodes.isEmpty()) {
            return new ResolvedRedisConnection(null, parseNodes(PREFIX + ".cluster.nodes", ourNodes, redis.getUsername(),
                    redis.getPassword(), bundle != null || Boolean.TRUE.equals(redis.getSsl().enabled()), redis.getClientName()),
                    redis.getCluster().maxRedirects(), bundle, pair(PREFIX), PREFIX + ".cluster.nodes");
        }
        List<String> springNodes = springSettings
                ? binder.bind(SPRING_PREFIX + ".cluster.nodes", Bindable.listOf(String.class)).orElse(List.of()) : List.of();
        if (!springNodes.isEmpty()) {
            List<RedisURI> nodes = parseNodes(SPRING_PREFIX + ".cluster.nodes", springNodes, springString(binder, "username"),
                    springString(binder, "password"),
                    bundle != null || binder.bind(SPRING_PREFIX + ".ssl.enabled", Boolean.class).orElse(false),
                    springString(binder, "client-name"));
            // Spring Data Redis's value, which this starter's binding did not check.
            int maxRedirects = binder.bind(SPRING_PREFIX + ".cluster.max-redirects", Integer.class)
                    .orElse(redis.getCluster().maxRedirects());
            PropertyRules.zeroOrMore(SPRING_PREFIX + ".cluster.max-redirects", maxRedirects, "");
            return new ResolvedRedisConnection(null, nodes, maxRedirects, bundle, pair(SPRING_PREFIX), SPRING_PREFIX + ".cluster.nodes");
        }
        warnIgnoredByUrl(redis);
        RedisURI uri;
        String credentialsSource;
        String source;
        if (redis.getUrl() != null) {
            uri = parseUrl(PREFIX + ".url", redis.getUrl());
            if (redis.getClientName() != null) {
                uri.setClientName(redis.getClientName());
            }
            credentialsSource = PREFIX + ".url (its user:password@ part)";
            source = PREFIX + ".url";
        }
        else if (springSettings && springString(binder, "url") != null) {
            uri = parseUrl(SPRING_PREFIX + ".url", springString(binder, "url"));
            credentialsSource = SPRING_PREFIX + ".url (its user:password@ part)";
            source = SPRING_PREFIX + ".url";
        }
        else if (springSettings && (springString(binder, "host") != null
                || binder.bind(SPRING_PREFIX + ".port", Integer.class).isBound())) {
            uri = springUri(binder);
            credentialsSource = pair(SPRING_PREFIX);
            source = SPRING_PREFIX + ".*";
        }
        else {
            uri = build(redis.getHost(), redis.getPort(), redis.getUsername(), redis.getPassword(), redis.getDatabase(),
                    redis.getSsl().enabled(), redis.getClientName());
            credentialsSource = pair(PREFIX);
            // Like Spring Boot's own Redis client, nothing configured means localhost.
            source = springSettings ? "the defaults (no " + PREFIX + " or " + SPRING_PREFIX + " connection property is set)"
                    : PREFIX + ".*";
        }
        if (bundle != null) {
            uri.setSsl(true);
        }
        return new ResolvedRedisConnection(uri, List.of(), redis.getCluster().maxRedirects(), bundle, credentialsSource, source);
    }

    /** Spring Data Redis's Sentinel settings, used when this starter's are not: refused, rather than reaching localhost. */
    private static void refuseSpringSentinel(Binder binder) {
        String master = springString(binder, "sentinel.master");
        if (master != null) {
            throw new InvalidAdaptiveCachePropertyException(SPRING_PREFIX + ".sentinel.master", master,
                    sentinelRefusal("Spring Data Redis's " + SPRING_PREFIX + ".sentinel.* is set"));
        }
        List<String> nodes = binder.bind(SPRING_PREFIX + ".sentinel.nodes", Bindable.listOf(String.class)).orElse(List.of());
        if (!nodes.isEmpty()) {
            throw new InvalidAdaptiveCachePropertyException(SPRING_PREFIX + ".sentinel.nodes", String.join(",", nodes),
                    sentinelRefusal("Spring Data Redis's " + SPRING_PREFIX + ".sentinel.* is set"));
        }
    }

    /** The URI from Spring Data Redis's host, port and the rest, which this starter's binding did not check. */
    private static RedisURI springUri(Binder binder) {
        Integer port = binder.bind(SPRING_PREFIX + ".port", Integer.class).orElse(null);
        if (port != null) {
            PropertyRules.between(SPRING_PREFIX + ".port", port, 1, 65535, "between 1 and 65535");
        }
        Integer database = binder.bind(SPRING_PREFIX + ".database", Integer.class).orElse(null);
        if (database != null) {
            PropertyRules.zeroOrMore(SPRING_PREFIX + ".database", database, "");
        }
        Boolean ssl = binder.bind(SPRING_PREFIX + ".ssl.bundle", String.class).isBound() ? Boolean.TRUE
                : binder.bind(SPRING_PREFIX + ".ssl.enabled", Boolean.class).orElse(null);
        return build(springString(binder, "host"), port, springString(binder, "username"), springString(binder, "password"),
                database, ssl, springString(binder, "client-name"));
    }

    private static @Nullable String springString(Binder binder, String property) {
        return binder.bind(SPRING_PREFIX + "." + property, String.class).orElse(null);
    }

    /** Whether the template is a Redis Cluster's. */
    boolean isCluster() {
        return this.standaloneUri == null;
    }

    /**
     * The standalone server's URI, TLS included: a copy, which the caller may change.
     * @throws IllegalStateException for a cluster
     */
    RedisURI standaloneUri() {
        if (this.standaloneUri == null) {
            throw new IllegalStateException("The Redis template is a Redis Cluster's: it has seed nodes, not one server");
        }
        return RedisURI.builder(this.standaloneUri).build();
    }

    /** A cluster's seed nodes with the credentials and TLS of every node (copies); empty for a standalone server. */
    List<RedisURI> clusterNodes() {
        return this.clusterNodes.stream().map(node -> RedisURI.builder(node).build()).toList();
    }

    /** The most MOVED or ASK redirects a cluster command follows: adaptive-cache's, or Spring Data Redis's when its nodes are used. */
    int maxRedirects() {
        return this.maxRedirects;
    }

    /** The SSL bundle's name, or {@code null} when none is named (TLS may still be on, with the JVM's trust store or a details bean's bundle). */
    @Nullable String sslBundle() {
        return this.sslBundle;
    }

    /**
     * Where the connection came from, for the startup line: a property (or group), a connection
     * details bean, or the defaults. Never a value.
     */
    String source() {
        return this.source;
    }

    /** Whether the connection came from a connection details bean rather than from properties or the defaults. */
    boolean fromConnectionDetails() {
        return this.fromConnectionDetails;
    }

    /**
     * What the template reaches, for the startup line: the server or seed nodes, the database and
     * whether TLS is on. Never the credentials.
     */
    String describe() {
        if (this.standaloneUri != null) {
            return this.standaloneUri.getHost() + ":" + this.standaloneUri.getPort() + " (database " + this.standaloneUri.getDatabase()
                    + ", TLS " + (this.standaloneUri.isSsl() ? "on" : "off") + ")";
        }
        boolean tls = !this.clusterNodes.isEmpty() && this.clusterNodes.get(0).isSsl();
        return "Redis Cluster seed nodes " + String.join(", ", this.clusterNodes.stream().map(node -> node.getHost() + ":" + node.getPort())
                .toList()) + " (TLS " + (tls ? "on" : "off") + ")";
    }

    /** The properties to check when the server refuses the credentials; names only, never values. */
    String credentialsSource() {
        return this.credentialsSource;
    }

    /** Lettuce's TLS settings from the SSL bundle, as Spring Boot's own Lettuce configuration makes them; empty without a bundle. */
    Optional<SslOptions> sslOptions(ObjectProvider<SslBundles> sslBundles) {
        SslBundle bundle = bundle(sslBundles);
        if (bundle == null) {
            return Optional.empty();
        }
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider()
                .keyManager(bundle.getManagers().getKeyManagerFactory())
                .trustManager(bundle.getManagers().getTrustManagerFactory());
        if (bundle.getOptions().getCiphers() != null) {
            ssl.cipherSuites(bundle.getOptions().getCiphers());
        }
        if (bundle.getOptions().getEnabledProtocols() != null) {
            ssl.protocols(bundle.getOptions().getEnabledProtocols());
        }
        return Optional.of(ssl.build());
    }

    /** The SSL bundle's context, for Jedis's TLS sockets (the same bundle as Lettuce's); empty without a bundle. */
    Optional<SSLContext> sslContext(ObjectProvider<SslBundles> sslBundles) {
        return Optional.ofNullable(bundle(sslBundles)).map(SslBundle::createSslContext);
    }

    /** The bundle a details bean gave, or the named one looked up now, or {@code null} for neither. */
    private @Nullable SslBundle bundle(ObjectProvider<SslBundles> sslBundles) {
        if (this.sslBundleObject != null) {
            return this.sslBundleObject;
        }
        return this.sslBundle == null ? null : bundle(this.sslBundle, sslBundles);
    }

    private static SslBundle bundle(String bundleName, ObjectProvider<SslBundles> sslBundles) {
        SslBundles bundles = sslBundles.getIfAvailable();
        if (bundles == null) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".ssl.bundle", bundleName,
                    "SSL bundles are not available (is SslAutoConfiguration excluded?)");
        }
        try {
            return bundles.getBundle(bundleName);
        }
        catch (NoSuchSslBundleException ex) {
            throw new InvalidAdaptiveCachePropertyException(PREFIX + ".ssl.bundle", bundleName,
                    "no SSL bundle of that name is configured under spring.ssl.bundle.*");
        }
    }

    private static String pair(String prefix) {
        return prefix + ".username and " + prefix + ".password";
    }

    /**
     * Warns when adaptive-cache.redis.url is set together with properties it overrides (Spring
     * Boot's rule: the URL wins). Names the properties, never their values.
     * @return the ignored properties' names (empty when nothing is ignored)
     */
    static List<String> warnIgnoredByUrl(AdaptiveCacheRedisProperties redis) {
        List<String> ignored = new ArrayList<>();
        if (redis.getUrl() == null || !redis.getCluster().nodes().isEmpty()) {
            return ignored;
        }
        addIfSet(ignored, "host", redis.getHost());
        addIfSet(ignored, "port", redis.getPort());
        addIfSet(ignored, "username", redis.getUsername());
        addIfSet(ignored, "password", redis.getPassword());
        addIfSet(ignored, "database", redis.getDatabase());
        addIfSet(ignored, "ssl.enabled", redis.getSsl().enabled());
        if (!ignored.isEmpty()) {
            logger.warn(PREFIX + ".url is set, so " + String.join(", ", ignored)
                    + (ignored.size() == 1 ? " is" : " are") + " ignored: the URL's own host, port, user:password@ part, database and"
                    + " scheme (rediss:// for TLS) apply. Put the credentials in the URL, or remove " + PREFIX
                    + ".url to use the separate properties.");
        }
        return ignored;
    }

    private static void addIfSet(List<String> ignored, String property, @Nullable Object value) {
        if (value != null) {
            ignored.add(PREFIX + "." + property);
        }
    }

    private static List<RedisURI> parseNodes(String property, List<String> nodes, @Nullable String username,
            @Nullable String password, boolean ssl, @Nullable String clientName) {
        List<RedisURI> uris = new ArrayList<>();
        for (String node : nodes) {
            String trimmed = node == null ? "" : node.trim();
            if (RedisCacheTemplates.isSentinelUri(trimmed)) {
                // Refused here: read as host:port, its scheme would become part of a host name that a socket is then opened to.
                throw new InvalidAdaptiveCachePropertyException(property, RedisCacheTemplates.maskCredentials(trimmed),
                        sentinelRefusal("a redis-sentinel:// URI as a cluster node"));
            }
            int colon = trimmed.lastIndexOf(':');
            int port;
            try {
                port = colon < 1 ? -1 : Integer.parseInt(trimmed.substring(colon + 1));
            }
            catch (NumberFormatException ex) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new InvalidAdaptiveCachePropertyException(property, node, "each node must be host:port, such as 10.0.0.1:6379");
            }
            uris.add(build(trimmed.substring(0, colon), port, username, password, null, ssl, clientName));
        }
        return uris;
    }

    static RedisURI build(@Nullable String host, @Nullable Integer port, @Nullable String username, @Nullable String password,
            @Nullable Integer database, @Nullable Boolean ssl, @Nullable String clientName) {
        // Ports and databases are checked where they are read: adaptive-cache.redis.* when bound, spring.data.redis.* above.
        int resolvedPort = port != null ? port : RedisURI.DEFAULT_REDIS_PORT;
        RedisURI.Builder uri = RedisURI.builder().withHost(host != null ? host : "localhost").withPort(resolvedPort)
                .withDatabase(database != null ? database : 0).withSsl(Boolean.TRUE.equals(ssl));
        if (password != null) {
            if (username != null) {
                uri.withAuthentication(username, password);
            }
            else {
                uri.withPassword(password.toCharArray());
            }
        }
        if (clientName != null) {
            uri.withClientName(clientName);
        }
        return uri.build();
    }

    private static RedisURI parseUrl(String property, String url) {
        RedisURI uri;
        try {
            uri = RedisURI.create(url);
        }
        catch (RuntimeException ex) {
            // A Sentinel URL that Lettuce cannot parse (no master's name) is still refused as Sentinel.
            throw RedisCacheTemplates.isSentinelUri(url) ? sentinelUrl(property, url) : malformedUrl(property, url, ex);
        }
        if (!uri.getSentinels().isEmpty()) {
            throw sentinelUrl(property, url);
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw malformedUrl(property, url, new IllegalArgumentException("no host"));
        }
        return uri;
    }

    private static InvalidAdaptiveCachePropertyException sentinelUrl(String property, String url) {
        return new InvalidAdaptiveCachePropertyException(property, RedisCacheTemplates.maskCredentials(url),
                sentinelRefusal("a redis-sentinel:// URL"));
    }

    private static InvalidAdaptiveCachePropertyException malformedUrl(String property, String url, RuntimeException ex) {
        return new InvalidAdaptiveCachePropertyException(property, RedisCacheTemplates.maskCredentials(url),
                "it must be a Redis URL such as redis://[user:password@]host:port[/database] or rediss://... for TLS ("
                        + RedisCacheTemplates.maskCredentials(String.valueOf(ex.getMessage())) + ")");
    }
}
