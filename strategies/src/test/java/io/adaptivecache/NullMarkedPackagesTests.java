package io.adaptivecache;

import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The null contract of the Spring-free core: every package of its main classes is {@link NullMarked}, so that a
 * type without {@code @Nullable} means "never null" to callers' tools (NullAway, Kotlin, IDEs), as in Spring
 * Framework 7. A new package without a marked {@code package-info.java} fails here.
 */
class NullMarkedPackagesTests {

    // Exactly this module's main classes (target/classes or its jar), not its tests nor other modules.
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .importUrl(CacheTemplate.class.getProtectionDomain().getCodeSource().getLocation());

    @Test
    void everyPackageShouldBeNullMarked() {
        Set<String> packages = new TreeSet<>();
        Set<String> unmarked = new TreeSet<>();
        for (JavaClass javaClass : CLASSES) {
            if (packages.add(javaClass.getPackageName()) && !isNullMarked(javaClass.getPackageName())) {
                unmarked.add(javaClass.getPackageName());
            }
        }
        // A check over no packages passes whatever the code does; make sure the import found them.
        assertThat(packages).contains("io.adaptivecache", "io.adaptivecache.template", "io.adaptivecache.redis");
        assertThat(unmarked).as("packages without a package-info.java annotated @NullMarked").isEmpty();
    }

    private static boolean isNullMarked(String packageName) {
        try {
            // javac writes no package-info class for a package without annotations: missing means unmarked.
            return Class.forName(packageName + ".package-info").isAnnotationPresent(NullMarked.class);
        }
        catch (ClassNotFoundException ex) {
            return false;
        }
    }
}
