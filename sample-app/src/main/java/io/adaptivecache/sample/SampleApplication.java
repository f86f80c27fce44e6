package io.adaptivecache.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/** The sample's entry point. */
@SpringBootApplication
@EnableCaching
public class SampleApplication {

    /**
     * Starts the sample; when nothing answers at the configured cache addresses, starts local
     * servers first (see {@link LocalCacheServers}).
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        // LocalCacheServers is registered in META-INF/spring.factories, so tests get it too.
        SpringApplication.run(SampleApplication.class, args);
    }
}
