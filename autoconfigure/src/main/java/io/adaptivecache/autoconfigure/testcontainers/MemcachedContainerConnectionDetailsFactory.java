package io.adaptivecache.autoconfigure.testcontainers;

import java.util.List;

import io.adaptivecache.autoconfigure.MemcachedConnectionDetails;
import io.adaptivecache.memcached.MemcachedServerAddress;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.testcontainers.containers.Container;

/**
 * {@link MemcachedConnectionDetails} for a {@code @ServiceConnection} container whose connection
 * name is {@code memcached}: deduced from a {@code memcached} image, such as
 * {@code new GenericContainer<>("memcached:1.6").withExposedPorts(11211)}, or given with
 * {@code @ServiceConnection(name = "memcached")}. The server is the container's host and the port
 * mapped to 11211, read when the template connects (which starts the container). Registered in
 * {@code META-INF/spring.factories}; Spring Boot loads it only when spring-boot-testcontainers is on
 * the class path, and skips it (logging why) when it cannot be loaded.
 */
class MemcachedContainerConnectionDetailsFactory extends ContainerConnectionDetailsFactory<Container<?>, MemcachedConnectionDetails> {

    private static final int MEMCACHED_PORT = 11211;

    MemcachedContainerConnectionDetailsFactory() {
        super("memcached");
    }

    @Override
    protected MemcachedConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
        return new MemcachedContainerConnectionDetails(source);
    }

    /** The container's one server. */
    static final class MemcachedContainerConnectionDetails extends ContainerConnectionDetails<Container<?>>
            implements MemcachedConnectionDetails {

        MemcachedContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
            super(source);
        }

        @Override
        public List<MemcachedServerAddress> getServers() {
            return List.of(new MemcachedServerAddress(getContainer().getHost(), getContainer().getMappedPort(MEMCACHED_PORT), 1));
        }
    }
}
