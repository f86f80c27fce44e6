package io.adaptivecache.autoconfigure;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layering of the Spring Boot module, checked on its compiled classes: the Actuator endpoint
 * and health indicators ({@code io.adaptivecache.actuate}) read the core's types only (a template
 * through its management interface), and the auto-configuration wires them; no package cycles.
 */
class PackageLayeringTests {

    // Exactly this module's main classes, not its tests nor the core module's.
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .importUrl(AdaptiveCacheAutoConfiguration.class.getProtectionDomain().getCodeSource().getLocation());

    @Test
    void actuateShouldNotDependOnTheAutoConfiguration() {
        noClasses().that().resideInAPackage("io.adaptivecache.actuate..").should().dependOnClassesThat()
                .resideInAPackage("io.adaptivecache.autoconfigure..").check(CLASSES);
    }

    @Test
    void actuateShouldSeeTemplatesThroughTheirInterfaces() {
        // The endpoint and health indicators read a template's management interface, whichever template it is.
        noClasses().that().resideInAPackage("io.adaptivecache.actuate..").should().dependOnClassesThat()
                .resideInAPackage("io.adaptivecache.template..").check(CLASSES);
    }

    @Test
    void thePackagesShouldBeFreeOfCycles() {
        slices().matching("io.adaptivecache.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void theRulesShouldSeeTheWholeModule() {
        // A rule over classes that were not imported passes whatever the code does.
        assertThat(CLASSES.containPackage("io.adaptivecache.actuate.endpoint")).isTrue();
        assertThat(CLASSES.containPackage("io.adaptivecache.actuate.health")).isTrue();
        assertThat(CLASSES.containPackage("io.adaptivecache.spring.cache")).isTrue();
    }
}
