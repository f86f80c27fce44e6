package io.adaptivecache.benchmarks.http.app;

import java.util.concurrent.atomic.AtomicLong;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * Where items come from: each id is made once and then served from the cache {@value #CACHE}.
 * Making one is cheap on purpose (no database), so that a request measures the cache and the web
 * layer; the count of loads tells the harness that every id stayed cached during its slices.
 */
@Service
public class ItemCatalog {

    /** The Spring cache's name. */
    public static final String CACHE = "items";

    private final AtomicLong loads = new AtomicLong();

    /**
     * The item of an id, from the cache when it holds it.
     * @param id the id
     * @return the item
     */
    @Cacheable(CACHE)
    public Item item(long id) {
        this.loads.incrementAndGet();
        return Item.of(id);
    }

    /** @return how many times an item was made because the cache did not hold it */
    public long loads() {
        return this.loads.get();
    }
}
