package io.adaptivecache;

import io.adaptivecache.testservers.NullMarkedPackagesContract;

/**
 * The null contract of the Spring-free core: every package of its main classes is
 * {@code @NullMarked} (see {@link NullMarkedPackagesContract}).
 */
class NullMarkedPackagesTests extends NullMarkedPackagesContract {

    NullMarkedPackagesTests() {
        super(CacheTemplate.class, "io.adaptivecache", "io.adaptivecache.template", "io.adaptivecache.redis");
    }
}
