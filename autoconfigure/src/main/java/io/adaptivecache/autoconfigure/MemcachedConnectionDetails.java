package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.memcached.MemcachedServerAddress;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where the memcached template connects: its servers and, optionally, a SASL user. The template
 * exists only when a bean of this type exists. One is made from
 * {@code adaptive-cache.memcached.servers} when that property is set and the application has no
 * bean of its own; Spring Boot's {@code @ServiceConnection} (Testcontainers) and Docker Compose
 * support make one for a {@code memcached} container, and an application may define its own. There
 * is no default server.
 */
public interface MemcachedConnectionDetails extends ConnectionDetails {

    /**
     * The servers, in order; keys are spread over them by ketama consistent hashing, in proportion to their weights
     * ({@link MemcachedServerAddress}: host, port and weight, checked when made).
     * @return at least one server
     */
    List<MemcachedServerAddress> getServers();

    /**
     * The SASL user name (binary protocol and the spymemcached driver only).
     * @return the user, or {@code null} to connect without SASL
     */
    default @Nullable String getUsername() {
        return null;
    }

    /**
     * The SASL password.
     * @return the password, or {@code null} for none
     */
    default @Nullable String getPassword() {
        return null;
    }
}
