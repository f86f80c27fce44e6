package io.adaptivecache.adaptive;

import java.time.Duration;
import java.time.Instant;

import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/**
 * One strategy switch a switcher carried out or attempted, with its reason, evidence and timings.
 *
 * @param template the template's name
 * @param at when
 * @param from the strategy before
 * @param to the strategy asked for
 * @param reason why
 * @param evidence the figures behind it, as the decision gave them
 * @param outcome whether it happened
 * @param warmUp time to open the new strategy's connections
 * @param drain time the old strategy took to finish its calls
 * @param failure why the new strategy could not be opened (the cause's message) for {@link Outcome#FAILED};
 *        {@code null} for {@link Outcome#SWITCHED}
 */
public record SwitchEvent(String template, Instant at, StrategySpec from, StrategySpec to, DecisionReason reason,
        String evidence, Outcome outcome, Duration warmUp, Duration drain, @Nullable String failure) {

    /**
     * A switch without a failure, as a {@link Outcome#SWITCHED} one is.
     * @param template the template's name
     * @param at when
     * @param from the strategy before
     * @param to the strategy asked for
     * @param reason why
     * @param evidence the figures behind it
     * @param outcome whether it happened
     * @param warmUp time to open the new strategy's connections
     * @param drain time the old strategy took to finish its calls
     */
    public SwitchEvent(String template, Instant at, StrategySpec from, StrategySpec to, DecisionReason reason, String evidence,
            Outcome outcome, Duration warmUp, Duration drain) {
        this(template, at, from, to, reason, evidence, outcome, warmUp, drain, null);
    }

    /**
     * The evidence with the failure after it ({@code "<evidence>; failed: <failure>"}) for a
     * failed switch, the evidence alone otherwise: the one line that logs, events and the
     * Actuator endpoint show for the switch.
     * @return the description
     */
    public String describedEvidence() {
        return this.failure == null ? this.evidence : this.evidence + "; failed: " + this.failure;
    }

    /** Whether a switch happened. */
    public enum Outcome {

        /** The new strategy is live. */
        SWITCHED,

        /** The new strategy could not be opened; the old one stays. */
        FAILED
    }
}
