package io.adaptivecache.autoconfigure;

import java.io.IOException;
import java.util.Set;

import io.adaptivecache.testservers.PackageAnnotations;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The null contract of the Spring Boot module: every package of its main classes is {@link NullMarked}, so that a
 * type without {@code @Nullable} means "never null" to callers' tools (NullAway, Kotlin, IDEs), as in Spring
 * Framework 7. A new package without a marked {@code package-info.java} fails here.
 */
class NullMarkedPackagesTests {

    @Test
    void everyPackageShouldBeNullMarked() throws IOException {
        // Exactly this module's main classes, not its tests nor the core module's.
        Set<String> packages = PackageAnnotations.packagesOf(AdaptiveCacheAutoConfiguration.class);
        // A check over no packages passes whatever the code does; make sure the listing found them.
        assertThat(packages).contains("io.adaptivecache.autoconfigure", "io.adaptivecache.actuate.endpoint", "io.adaptivecache.spring.cache");
        assertThat(PackageAnnotations.without(NullMarked.class, packages)).as("packages without a package-info.java annotated @NullMarked")
                .isEmpty();
    }
}
