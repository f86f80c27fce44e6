package io.adaptivecache.benchmarks.targets;

import java.time.Duration;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.benchmarks.load.LoadedClient;

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
    public void close() {
        this.template.close();
    }
}
