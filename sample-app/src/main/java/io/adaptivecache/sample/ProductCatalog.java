package io.adaptivecache.sample;

import java.util.concurrent.atomic.AtomicLong;

import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/** A deliberately slow lookup, read through the {@code products} cache. */
@Service
public class ProductCatalog {

    /** How long the pretend database takes to answer. */
    static final long LOOKUP_MILLIS = 300;

    private final AtomicLong lookups = new AtomicLong();

    /**
     * Finds a product; the first call per id is slow, later ones come from the cache.
     * @param id the product id
     * @return the product
     */
    @Cacheable("products")
    public Product find(long id) {
        this.lookups.incrementAndGet();
        try {
            Thread.sleep(LOOKUP_MILLIS); // stands in for a slow database query
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        return new Product(id, "Product " + id, 10.0 + id % 90);
    }

    /**
     * Forgets a cached product.
     * @param id the product id
     */
    @CacheEvict("products")
    public void forget(long id) {
    }

    /**
     * Slow lookups done so far (cache misses).
     * @return the count
     */
    public long lookups() {
        return this.lookups.get();
    }

    /**
     * A product.
     * @param id its id
     * @param name its name
     * @param price its price
     */
    public record Product(long id, String name, double price) {
    }
}
