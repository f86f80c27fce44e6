package io.adaptivecache.autoconfigure.cache.json.app;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * A test application in a package of its own, which it registers as {@code @SpringBootApplication}
 * does ({@link AutoConfigurationPackage}): the package whose classes cached values may name.
 */
@Configuration(proxyBeanMethods = false)
@EnableCaching
@AutoConfigurationPackage
@Import(AllowListApplication.Catalog.class)
public class AllowListApplication {

    /**
     * A value of the application's own.
     * @param id its id
     * @param name its name
     */
    public record Item(int id, String name) {
    }

    /** A cached lookup that counts the calls that reach it (misses). */
    public static class Catalog {

        private final AtomicInteger lookups = new AtomicInteger();

        /**
         * Looks an item up, through the {@code items} cache; whatever the cache holds for the id is returned as is.
         * @param id the id
         * @return the cached value, else a new item
         */
        @Cacheable("items")
        public Object find(int id) {
            this.lookups.incrementAndGet();
            return new Item(id, "item-" + id);
        }

        /**
         * Calls that reached the method.
         * @return the count
         */
        public int lookups() {
            return this.lookups.get();
        }
    }
}
