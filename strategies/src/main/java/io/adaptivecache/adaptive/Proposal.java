package io.adaptivecache.adaptive;

import io.adaptivecache.strategy.StrategySpec;

/**
 * What the rules make of one window, before anything about time or history: stay on
 * {@code current}, or move to {@code target}, with the reason and the figures behind it.
 * {@link #at(long)} stamps it into a {@link Decision}.
 *
 * @param current the strategy live during the window
 * @param target the strategy proposed ({@code current} to stay)
 * @param reason why
 * @param evidence the figures behind it, readable by a person
 */
record Proposal(StrategySpec current, StrategySpec target, DecisionReason reason, String evidence) {

    static Proposal stay(StrategySpec current, DecisionReason reason, String evidence) {
        return new Proposal(current, current, reason, evidence);
    }

    boolean isSwitch() {
        return !this.target.equals(this.current);
    }

    Decision at(long atNanos) {
        return new Decision(atNanos, this.current, this.target, this.reason, this.evidence);
    }
}
