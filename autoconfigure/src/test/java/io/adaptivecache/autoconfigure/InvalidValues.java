package io.adaptivecache.autoconfigure;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.analyzer.BootFailureAnalyzers;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check every test of an invalid property value makes: startup fails, and Boot's failure
 * analysis names the property, says why its value is wrong and suggests an action.
 */
final class InvalidValues {

    private InvalidValues() {
    }

    /**
     * Starts {@code runner} with {@code property} (and {@code more}) and asserts the failure and its analysis.
     *
     * @param runner the context the value is given to
     * @param property the invalid {@code name=value}
     * @param expectedProperty the name the analysis must show
     * @param expectedReason words of the reason the analysis must show
     * @param more further {@code name=value} pairs the case needs (for instance to switch a feature on)
     */
    static void assertRejected(ApplicationContextRunner runner, String property, String expectedProperty, String expectedReason,
            String... more) {
        runner.withPropertyValues(property).withPropertyValues(more).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = BootFailureAnalyzers.invalidValue(context.getStartupFailure());
            assertThat(analysis).as("failure analysis of %s", context.getStartupFailure()).isNotNull();
            assertThat(analysis.getDescription()).contains(expectedProperty).contains(expectedReason);
            assertThat(analysis.getAction()).isNotBlank();
        });
    }
}
