package org.springframework.boot.diagnostics.analyzer;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.StandardEnvironment;

/** Reaches Spring Boot's package-private failure analyzers, to assert what a user would read at startup. */
public final class BootFailureAnalyzers {

    private BootFailureAnalyzers() {
    }

    /** What Boot prints for a property that failed to bind (such as an unknown enum value). */
    public static FailureAnalysis bindFailure(Throwable failure) {
        return new BindFailureAnalyzer().analyze(failure);
    }

    /** What Boot prints for an {@code InvalidConfigurationPropertyValueException}. */
    public static FailureAnalysis invalidValue(Throwable failure) {
        return new InvalidConfigurationPropertyValueFailureAnalyzer(new StandardEnvironment()).analyze(failure);
    }
}
