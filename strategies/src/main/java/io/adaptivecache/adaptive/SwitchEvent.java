package io.adaptivecache.adaptive;

import java.time.Duration;
import java.time.Instant;

import io.adaptivecache.strategy.StrategySpec;

/**
 * One strategy switch a switcher carried out or attempted, with its reason, evidence and timings.
 *
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
public record SwitchEvent(String template, Instant at, StrategySpec from, StrategySpec to, DecisionReason reason,
        String evidence, Outcome outcome, Duration warmUp, Duration drain) {

    /** Whether a switch happened. */
    public enum Outcome {

        /** The new strategy is live. */
        SWITCHED,

        /** The new strategy could not be opened; the old one stays. */
        FAILED
    }
}
