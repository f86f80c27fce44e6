package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.memcached.MemcachedServerAddress;
import org.jspecify.annotations.Nullable;

/**
 * The memcached connection from {@code adaptive-cache.memcached.servers}, {@code username} and
 * {@code password}; registered when the servers are set and the application has no
 * {@link MemcachedConnectionDetails} bean of its own (Spring Boot's pattern for its own
 * properties-based connection details).
 */
final class PropertiesMemcachedConnectionDetails implements MemcachedConnectionDetails {

    private final AdaptiveCacheMemcachedProperties properties;

    PropertiesMemcachedConnectionDetails(AdaptiveCacheMemcachedProperties properties) {
        this.properties = properties;
    }

    @Override
    public List<MemcachedServerAddress> getServers() {
        // Parsed (and checked, naming the entry at fault) on every call: the properties may be rebound.
        return this.properties.serverAddresses("adaptive-cache.memcached");
    }

    @Override
    public @Nullable String getUsername() {
        return this.properties.getUsername();
    }

    @Override
    public @Nullable String getPassword() {
        return this.properties.getPassword();
    }
}
