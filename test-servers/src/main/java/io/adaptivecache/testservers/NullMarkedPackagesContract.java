package io.adaptivecache.testservers;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;

import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The null contract of one module: every package of its main classes is {@link NullMarked}, so
 * that a type without {@code @Nullable} means "never null" to callers' tools (NullAway, Kotlin,
 * IDEs), as in Spring Framework 7. A new package without a marked {@code package-info.java} fails
 * here. Each module's test extends this, naming a main class of the module and packages that the
 * listing must find; the check itself is the same for every module.
 */
public abstract class NullMarkedPackagesContract {

    private final Class<?> anchor;

    private final List<String> expectedPackages;

    /**
     * @param anchor a main class of the module: its classes are those loaded from the same place
     * @param expectedPackages packages of the module that the listing must find
     */
    protected NullMarkedPackagesContract(Class<?> anchor, String... expectedPackages) {
        this.anchor = anchor;
        this.expectedPackages = List.of(expectedPackages);
    }

    /**
     * Every package of the module's main classes has a {@code package-info} annotated
     * {@code @NullMarked}.
     * @throws IOException when the module's classes cannot be listed
     */
    @Test
    public void everyPackageShouldBeNullMarked() throws IOException {
        // Exactly this module's main classes (target/classes or its jar), not its tests nor other modules.
        Set<String> packages = PackageAnnotations.packagesOf(this.anchor);
        // A check over no packages passes whatever the code does; make sure the listing found them.
        assertTrue(packages.containsAll(this.expectedPackages),
                () -> "the listing of " + this.anchor.getName() + "'s module found " + packages + ", not all of " + this.expectedPackages);
        SortedSet<String> unmarked = PackageAnnotations.without(NullMarked.class, packages);
        assertTrue(unmarked.isEmpty(), () -> "packages without a package-info.java annotated @NullMarked: " + unmarked);
    }
}
