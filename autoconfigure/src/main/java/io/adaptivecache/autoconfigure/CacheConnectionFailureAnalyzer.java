package io.adaptivecache.autoconfigure;

import io.adaptivecache.CacheAuthenticationException;
import io.adaptivecache.CacheConnectionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a cache server that could not be reached, or that refused the credentials, while the
 * context started. Names where an auto-configured template's server came from, as its startup
 * line does ({@link TemplateServerSources}): the properties to check, or the connection details
 * bean whose server it is (a {@code @ServiceConnection} container, a Docker Compose service),
 * whose template no property would fix. Never a password.
 */
class CacheConnectionFailureAnalyzer extends AbstractFailureAnalyzer<CacheConnectionException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, CacheConnectionException cause) {
        boolean memcached = cause.getMessage() != null && cause.getMessage().contains("memcached");
        String backend = memcached ? "memcached" : "redis";
        if (cause instanceof CacheAuthenticationException refused) {
            return authentication(refused, backend);
        }
        String server = memcached ? "memcached server" : isCluster(cause) ? "Redis Cluster nodes (any one reachable seed node is enough)"
                : "redis server";
        String disable = "set adaptive-cache." + backend + ".enabled=false if the application does not use " + backend + ".";
        TemplateServerSources.StartFailure start = findCause(rootFailure, TemplateServerSources.StartFailure.class);
        String description = "A cache template could not connect at startup: " + cause.getMessage();
        if (start != null) {
            description += System.lineSeparator() + "Its server came from " + start.source().description() + ".";
            if (start.source().connectionDetails()) {
                // No property was read for this server: the bean is what to fix (or the container or service it describes).
                return new FailureAnalysis(description, "Start the " + server + " that " + start.source().description()
                        + " describes (for @ServiceConnection or Docker Compose, its container or service), correct that bean, or "
                        + disable, cause);
            }
        }
        String address = memcached ? "adaptive-cache.memcached.servers"
                : isCluster(cause) ? "adaptive-cache.redis.cluster.nodes (or spring.data.redis.cluster.nodes, when no adaptive-cache.redis"
                        + " connection property is set and Spring Data Redis's are used)"
                        : "adaptive-cache.redis.url (or host and port)";
        return new FailureAnalysis(description, "Start the " + server + ", point " + address + " at a running one, or " + disable, cause);
    }

    private static boolean isCluster(CacheConnectionException cause) {
        return cause.getMessage() != null && cause.getMessage().contains("Redis Cluster");
    }

    private static FailureAnalysis authentication(CacheAuthenticationException refused, String backend) {
        String properties = refused.credentialsSource() != null ? refused.credentialsSource()
                : "adaptive-cache." + backend + ".username and adaptive-cache." + backend + ".password";
        String serverSide = backend.equals("redis")
                ? refused.user() != null ? " (on the server: ACL GETUSER " + refused.user() + ")"
                        : " (on the server: requirepass, or ACL GETUSER default)"
                : " (on the server: its SASL user database)";
        return new FailureAnalysis("The " + backend + " server refused the credentials at startup: " + refused.getMessage(),
                "Check " + properties + ": the user name and password must match a user that the server knows and that is enabled"
                        + serverSide + ".",
                refused);
    }
}
