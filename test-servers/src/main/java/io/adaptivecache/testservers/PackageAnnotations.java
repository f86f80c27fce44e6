package io.adaptivecache.testservers;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The packages of one module's main classes and the annotations on their {@code package-info},
 * for the modules' null-contract tests ({@link NullMarkedPackagesContract}). Here, in the one
 * test-support module the others' tests share, so that each module states only its own anchor
 * class and the packages it expects.
 */
public final class PackageAnnotations {

    private PackageAnnotations() {
    }

    /**
     * The packages holding a class in the directory or jar {@code anchor} was loaded from: exactly
     * that module's main classes, not its tests nor other modules.
     * @param anchor a main class of the module
     * @return the package names, sorted
     * @throws IOException when the classes cannot be listed
     */
    public static SortedSet<String> packagesOf(Class<?> anchor) throws IOException {
        Path location;
        try {
            location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (URISyntaxException ex) {
            throw new IOException("Cannot locate the classes of " + anchor.getName(), ex);
        }
        if (Files.isDirectory(location)) {
            return packagesUnder(location);
        }
        try (FileSystem jar = FileSystems.newFileSystem(location)) {
            return packagesUnder(jar.getPath("/"));
        }
    }

    /**
     * The packages whose {@code package-info} lacks an annotation; javac writes no
     * {@code package-info} class for a package without annotations, so a missing one counts as
     * lacking it.
     * @param annotation the annotation looked for (runtime-retained)
     * @param packages the packages, on the test class path
     * @return those without it, sorted
     */
    public static SortedSet<String> without(Class<? extends Annotation> annotation, Set<String> packages) {
        SortedSet<String> unmarked = new TreeSet<>();
        for (String packageName : packages) {
            if (!isAnnotated(packageName, annotation)) {
                unmarked.add(packageName);
            }
        }
        return unmarked;
    }

    private static boolean isAnnotated(String packageName, Class<? extends Annotation> annotation) {
        try {
            return Class.forName(packageName + ".package-info").isAnnotationPresent(annotation);
        }
        catch (ClassNotFoundException ex) {
            return false;
        }
    }

    private static SortedSet<String> packagesUnder(Path root) throws IOException {
        SortedSet<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(file -> file.toString().endsWith(".class") && !file.getFileName().toString().equals("module-info.class"))
                    .map(file -> root.relativize(file.getParent()).toString().replace(root.getFileSystem().getSeparator(), "."))
                    .filter(name -> !name.startsWith("META-INF"))
                    .forEach(packages::add);
        }
        return packages;
    }
}
