package io.adaptivecache.testservers;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layering of one module, checked on its compiled classes: what every module's layering
 * test holds (no package cycles, and an import that found the module's packages, without which
 * every rule would pass whatever the code does). Each module's test extends this, naming a main
 * class of the module and packages the import must find, and adds its own rules over
 * {@link #classes()}. One instance for the class's tests, so that the module is imported once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PackageLayeringContract {

    private final JavaClasses classes;

    private final List<String> expectedPackages;

    /**
     * @param anchor a main class of the module: its classes are those loaded from the same place
     * @param expectedPackages packages of the module that the import must find
     */
    protected PackageLayeringContract(Class<?> anchor, String... expectedPackages) {
        // Exactly this module's main classes (target/classes or its jar), not its tests nor other modules.
        this.classes = new ClassFileImporter().importUrl(anchor.getProtectionDomain().getCodeSource().getLocation());
        this.expectedPackages = List.of(expectedPackages);
    }

    /**
     * The module's main classes, for the subclass's rules.
     * @return the imported classes
     */
    protected final JavaClasses classes() {
        return this.classes;
    }

    /** No cycle between the module's top-level packages (those under {@code io.adaptivecache}). */
    @Test
    public void thePackagesShouldBeFreeOfCycles() {
        slices().matching("io.adaptivecache.(*)..").should().beFreeOfCycles().check(this.classes);
    }

    /** The import found the module: a rule over classes that were not imported passes whatever the code does. */
    @Test
    public void theRulesShouldSeeTheWholeModule() {
        for (String expected : this.expectedPackages) {
            assertTrue(this.classes.containPackage(expected), () -> "the import holds no package " + expected);
        }
    }
}
