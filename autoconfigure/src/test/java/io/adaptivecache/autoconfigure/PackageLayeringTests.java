package io.adaptivecache.autoconfigure;

import io.adaptivecache.testservers.PackageLayeringContract;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The layering of the Spring Boot module, checked on its compiled classes: the Actuator endpoint
 * and health indicators ({@code io.adaptivecache.actuate}) read the core's types only (a template
 * through its management interface), and the auto-configuration wires them; no package cycles
 * (see {@link PackageLayeringContract}).
 */
class PackageLayeringTests extends PackageLayeringContract {

    PackageLayeringTests() {
        super(AdaptiveCacheAutoConfiguration.class, "io.adaptivecache.actuate.endpoint", "io.adaptivecache.actuate.health",
                "io.adaptivecache.spring.cache");
    }

    @ParameterizedTest(name = "{0} must not depend on {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            io.adaptivecache.actuate.. | io.adaptivecache.autoconfigure.. | the auto-configuration wires the endpoint and health indicators, not the other way
            io.adaptivecache.actuate.. | io.adaptivecache.template..      | they read a template's management interface, whichever template it is
            """)
    void onePackageShouldNotDependOnAnother(String from, String to, String why) {
        noClasses().that().resideInAPackage(from).should().dependOnClassesThat().resideInAPackage(to).because(why).check(classes());
    }
}
