package io.adaptivecache.benchmarks.targets;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.benchmarks.load.LoadedClient;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisWrites;

/** adaptive-cache with a fixed strategy: the template's blocking get and set. */
class CacheTemplateClient implements LoadedClient {

    private final CacheTemplate template;

    CacheTemplateClient(CacheTemplate template) {
        this.template = template;
    }

    @Override
    public byte[] get(String key) {
        return this.template.get(key);
    }

    @Override
    public void set(String key, byte[] value) {
        this.template.set(key, value, Duration.ZERO);
    }

    @Override
    public Optional<RedisWrites> redisWrites() {
        // Empty for a memcached template and for one that is not ours to count (a near cache over a template says so itself).
        return this.template instanceof ManagedCacheTemplate managed ? RedisWrites.of(managed) : Optional.empty();
    }

    @Override
    public void close() {
        // How many commands shared a socket write, on stderr: stdout is a worker's replies to the pair harness.
        redisWrites().ifPresent(writes -> System.err.printf(Locale.ROOT,
                "Redis template: %,d commands in %,d socket writes, %.1f per write%n", writes.commands(), writes.writes(),
                writes.commandsPerWrite()));
        this.template.close();
    }
}
