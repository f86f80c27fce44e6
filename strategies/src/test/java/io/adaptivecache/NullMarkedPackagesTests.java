package io.adaptivecache;

import java.io.IOException;
import java.util.Set;

import io.adaptivecache.testservers.PackageAnnotations;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The null contract of the Spring-free core: every package of its main classes is {@link NullMarked}, so that a
 * type without {@code @Nullable} means "never null" to callers' tools (NullAway, Kotlin, IDEs), as in Spring
 * Framework 7. A new package without a marked {@code package-info.java} fails here.
 */
class NullMarkedPackagesTests {

    @Test
    void everyPackageShouldBeNullMarked() throws IOException {
        // Exactly this module's main classes (target/classes or its jar), not its tests nor other modules.
        Set<String> packages = PackageAnnotations.packagesOf(CacheTemplate.class);
        // A check over no packages passes whatever the code does; make sure the listing found them.
        assertThat(packages).contains("io.adaptivecache", "io.adaptivecache.template", "io.adaptivecache.redis");
        assertThat(PackageAnnotations.without(NullMarked.class, packages)).as("packages without a package-info.java annotated @NullMarked")
                .isEmpty();
    }
}
