package io.adaptivecache.adaptive;

import io.adaptivecache.strategy.StrategySpec;

/**
 * What a policy decided after one window: stay, or switch to {@code target}; with the reason
 * and the evidence (the figures that triggered it), for logs, events and the Actuator endpoint.
 *
 * @param atNanos when, on the switcher's clock
 * @param current the strategy live during the window
 * @param target the strategy to switch to ({@code current} when staying)
 * @param reason why
 * @param evidence the figures behind it, readable by a person
 */
public record Decision(long atNanos, StrategySpec current, StrategySpec target, DecisionReason reason, String evidence) {

    /**
     * A decision to stay.
     * @param atNanos when
     * @param current the live strategy
     * @param reason why
     * @param evidence the figures behind it
     * @return the decision
     */
    public static Decision stay(long atNanos, StrategySpec current, DecisionReason reason, String evidence) {
        return new Decision(atNanos, current, current, reason, evidence);
    }

    /**
     * Whether this decision asks for a change.
     * @return {@code true} to switch
     */
    public boolean isSwitch() {
        return !this.target.equals(this.current);
    }
}
