package io.adaptivecache.integration;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;

/** A minimal application with one cached service, configured only by properties. */
@SpringBootApplication
@EnableCaching
public class CachingTestApplication {

    @Bean
    PriceService priceService() {
        return new PriceService();
    }

    /** A service whose answers are cached; it counts the calls that reach it. */
    public static class PriceService {

        private final AtomicInteger computations = new AtomicInteger();

        /**
         * A price, cached in {@code prices}.
         * @param sku the product
         * @return its price
         */
        @Cacheable("prices")
        public Price price(String sku) {
            this.computations.incrementAndGet();
            return new Price(sku, sku.length() * 100);
        }

        /**
         * A price, cached in {@code short-lived}, whose TTL the test sets (a few seconds).
         * @param sku the product
         * @return its price
         */
        @Cacheable("short-lived")
        public Price shortLived(String sku) {
            this.computations.incrementAndGet();
            return new Price(sku, 1);
        }

        /**
         * The same price as {@link #price}, in the same cache, loaded once per key at a time
         * ({@code @Cacheable(sync = true)}).
         * @param sku the product
         * @return its price
         */
        @Cacheable(cacheNames = "prices", sync = true)
        public Price syncPrice(String sku) {
            this.computations.incrementAndGet();
            return new Price(sku, sku.length() * 100);
        }

        /**
         * Drops a cached price.
         * @param sku the product
         */
        @CacheEvict("prices")
        public void evict(String sku) {
        }

        /** Calls that reached the service. */
        public int computations() {
            return this.computations.get();
        }
    }

    /**
     * A price.
     * @param sku the product
     * @param cents its price
     */
    public record Price(String sku, long cents) {
    }
}
