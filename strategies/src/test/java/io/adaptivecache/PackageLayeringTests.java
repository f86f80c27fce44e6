package io.adaptivecache;

import io.adaptivecache.testservers.PackageLayeringContract;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The layering of the Spring-free core, checked on its compiled classes: the call vocabulary
 * ({@code io.adaptivecache.call}) at the bottom, the Micrometer adapter
 * ({@code io.adaptivecache.micrometer}) on top, no package cycles in between, no Spring anywhere,
 * no Micrometer on the hot path, and the template implementation ({@code io.adaptivecache.template})
 * reached only by the backends that build it and the near cache that wraps templates; the near
 * cache free of cache clients and alone with Caffeine (cycles and the import's reach: see
 * {@link PackageLayeringContract}).
 */
class PackageLayeringTests extends PackageLayeringContract {

    /** The packages a cache call runs through: the template, its strategies, the backends' SPI, drivers and guards. */
    private static final String[] HOT_PATH = { "io.adaptivecache", "io.adaptivecache.call..", "io.adaptivecache.template..",
            "io.adaptivecache.backend..", "io.adaptivecache.management..", "io.adaptivecache.strategy..",
            "io.adaptivecache.redis..", "io.adaptivecache.memcached..", "io.adaptivecache.resilience..",
            "io.adaptivecache.metrics..", "io.adaptivecache.adaptive..", "io.adaptivecache.near.." };

    PackageLayeringTests() {
        super(CacheTemplate.class, "io.adaptivecache.template", "io.adaptivecache.management", "io.adaptivecache.backend",
                "io.adaptivecache.redis", "io.adaptivecache.redis.tracking", "io.adaptivecache.near");
    }

    @Test
    void theRedisTemplatesShouldNotDependOnTheInvalidationSource() {
        // One direction between the two Redis packages, which the slice rule above sees as one: the invalidation source
        // builds on the template code (URIs, transport, the credential-safe encoder); the templates know no near cache.
        noClasses().that().resideInAPackage("io.adaptivecache.redis").should().dependOnClassesThat()
                .resideInAPackage("io.adaptivecache.redis.tracking..").check(classes());
    }

    @Test
    void noClassShouldDependOnSpring() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework..").check(classes());
    }

    @Test
    void theHotPathShouldNotDependOnMicrometer() {
        noClasses().that().resideInAnyPackage(HOT_PATH).should().dependOnClassesThat().resideInAPackage("io.micrometer..")
                .check(classes());
    }

    @Test
    void onlyTheBackendsShouldBuildOnTheTemplateImplementation() {
        // The switcher, the Micrometer binding and the management and SPI types see a template through its interfaces;
        // only a backend's builder extends the builder base that creates the implementation.
        noClasses().that().resideInAnyPackage("io.adaptivecache", "io.adaptivecache.management..", "io.adaptivecache.backend..",
                "io.adaptivecache.adaptive..", "io.adaptivecache.micrometer..", "io.adaptivecache.metrics..",
                "io.adaptivecache.strategy..", "io.adaptivecache.resilience..", "io.adaptivecache.call..").should()
                .dependOnClassesThat().resideInAPackage("io.adaptivecache.template..").check(classes());
    }

    @Test
    void theNearCacheShouldDependOnNoCacheClient() {
        // The local tier sits above any template; the Redis invalidation source lives with the other Lettuce code
        // (io.adaptivecache.redis.tracking).
        noClasses().that().resideInAPackage("io.adaptivecache.near..").should().dependOnClassesThat()
                .resideInAnyPackage("io.lettuce..", "redis.clients..", "net.spy..", "net.rubyeye..", "io.netty..")
                .check(classes());
    }

    @Test
    void onlyTheNearCacheShouldDependOnCaffeine() {
        // Caffeine is optional: a class outside the near cache that touched it would need it on every classpath.
        noClasses().that().resideOutsideOfPackage("io.adaptivecache.near..").should().dependOnClassesThat()
                .resideInAPackage("com.github.benmanes.caffeine..").check(classes());
    }
}
