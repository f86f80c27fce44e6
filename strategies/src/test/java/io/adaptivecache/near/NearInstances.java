package io.adaptivecache.near;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.redis.tracking.RedisInvalidations;

/**
 * Application instances for near-cache tests: each has a template of its own, an invalidation
 * source of its own and a near cache over both, as two JVMs would, all on one Redis server.
 * Closes everything it made.
 */
final class NearInstances implements AutoCloseable {

    /** The prefix every near cache of these tests caches. */
    static final String PREFIX = "near:";

    /**
     * The GETs a server has executed, from its own count ({@code INFO commandstats}): what reached
     * the server, whatever the near caches counted.
     * @param server the server
     * @return the count, 0 before the first
     */
    static long serverGets(RedisServer server) {
        String stat;
        try {
            stat = server.info("commandstats", "cmdstat_get");
        }
        catch (IllegalStateException ex) {
            return 0; // no GET executed yet: INFO lists only commands that ran
        }
        int from = stat.indexOf("calls=") + "calls=".length();
        int to = stat.indexOf(',', from);
        return Long.parseLong(stat.substring(from, to < 0 ? stat.length() : to));
    }

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final String uri;

    NearInstances(String uri) {
        this.uri = uri;
    }

    /** An instance with the given template settings and a 100 ms heartbeat (a 300 ms staleness bound). */
    Instance start(String name, Consumer<RedisCacheTemplates.Builder> template) {
        return start(name, template, NearInstances::fastHeartbeat, NearCacheSettings.builder().keyPrefixes(PREFIX).build());
    }

    /** A heartbeat every 100 ms, answered within 200 ms: a 300 ms staleness bound. */
    static void fastHeartbeat(RedisInvalidations.Builder source) {
        source.heartbeatInterval(Duration.ofMillis(100)).heartbeatTimeout(Duration.ofMillis(200));
    }

    Instance start(String name, Consumer<RedisCacheTemplates.Builder> template, Consumer<RedisInvalidations.Builder> source,
            NearCacheSettings settings) {
        // The template's URI first, so that a test may point the data path elsewhere (through a proxy).
        RedisCacheTemplates.Builder builder = RedisCacheTemplates.builder().uri(uri).name(name)
                .commandTimeout(Duration.ofSeconds(2)).maxReconnectDelay(Duration.ofMillis(200));
        template.accept(builder);
        ManagedCacheTemplate remote = builder.start();
        opened.add(remote);
        RedisInvalidations.Builder sourceBuilder = RedisInvalidations.builder().uri(uri).name(name)
                .maxReconnectDelay(Duration.ofMillis(200));
        source.accept(sourceBuilder);
        InvalidationSource invalidations = sourceBuilder.start();
        opened.add(invalidations);
        NearCacheTemplate near = NearCacheTemplates.redis(remote, invalidations, settings);
        opened.add(near);
        return new Instance(name, remote, invalidations, near);
    }

    /** A started instance: its remote template, its invalidation source and its near cache. */
    record Instance(String name, ManagedCacheTemplate remote, InvalidationSource invalidations, NearCacheTemplate near) {
    }

    @Override
    public void close() {
        // Near caches first, then sources, then templates: the reverse of opening.
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            }
            catch (Exception ex) {
                // Closing the rest matters more.
            }
        }
    }
}
