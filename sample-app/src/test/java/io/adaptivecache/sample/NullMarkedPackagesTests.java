package io.adaptivecache.sample;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The null contract of the sample application: every package of its main classes is {@link NullMarked}, as the
 * library's own packages are. A new package without a marked {@code package-info.java} fails here.
 */
class NullMarkedPackagesTests {

    @Test
    void everyPackageShouldBeNullMarked() throws IOException, URISyntaxException {
        // Exactly this module's main classes (target/classes), not its tests.
        Path classes = Path.of(SampleApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            files.filter(file -> file.toString().endsWith(".class"))
                    .forEach(file -> packages.add(classes.relativize(file.getParent()).toString().replace(file.getFileSystem().getSeparator(), ".")));
        }
        Set<String> unmarked = new TreeSet<>();
        for (String packageName : packages) {
            if (!isNullMarked(packageName)) {
                unmarked.add(packageName);
            }
        }
        // A check over no packages passes whatever the code does; make sure the walk found them.
        assertThat(packages).contains("io.adaptivecache.sample");
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
