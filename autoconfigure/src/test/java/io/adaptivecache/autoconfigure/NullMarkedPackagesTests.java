package io.adaptivecache.autoconfigure;

import io.adaptivecache.testservers.NullMarkedPackagesContract;

/**
 * The null contract of the Spring Boot module: every package of its main classes is
 * {@code @NullMarked} (see {@link NullMarkedPackagesContract}).
 */
class NullMarkedPackagesTests extends NullMarkedPackagesContract {

    NullMarkedPackagesTests() {
        super(AdaptiveCacheAutoConfiguration.class, "io.adaptivecache.autoconfigure", "io.adaptivecache.actuate.endpoint",
                "io.adaptivecache.spring.cache");
    }
}
