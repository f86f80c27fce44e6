package io.adaptivecache.autoconfigure.docker;

import java.util.List;

import io.adaptivecache.autoconfigure.MemcachedConnectionDetails;
import io.adaptivecache.memcached.MemcachedServerAddress;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;

/**
 * {@link MemcachedConnectionDetails} for a Docker Compose service running the {@code memcached}
 * image (or labelled {@code org.springframework.boot.service-connection: memcached}): the host and
 * the port mapped to the container's 11211. Registered in {@code META-INF/spring.factories}; Spring
 * Boot loads it only when spring-boot-docker-compose is on the class path, and skips it (logging
 * why) when it cannot be loaded. The official image has no SASL, so the details carry no user.
 */
class MemcachedDockerComposeConnectionDetailsFactory extends DockerComposeConnectionDetailsFactory<MemcachedConnectionDetails> {

    private static final int MEMCACHED_PORT = 11211;

    MemcachedDockerComposeConnectionDetailsFactory() {
        super("memcached");
    }

    @Override
    protected MemcachedConnectionDetails getDockerComposeConnectionDetails(DockerComposeConnectionSource source) {
        return new MemcachedDockerComposeConnectionDetails(source.getRunningService());
    }

    /** The one server of the service, read once when the details are made. */
    static final class MemcachedDockerComposeConnectionDetails extends DockerComposeConnectionDetails
            implements MemcachedConnectionDetails {

        private final List<MemcachedServerAddress> servers;

        MemcachedDockerComposeConnectionDetails(RunningService service) {
            super(service);
            this.servers = List.of(new MemcachedServerAddress(service.host(), service.ports().get(MEMCACHED_PORT), 1));
        }

        @Override
        public List<MemcachedServerAddress> getServers() {
            return this.servers;
        }
    }
}
