package io.adaptivecache.adaptive;

import java.time.Duration;

import io.adaptivecache.metrics.WindowSample;

/**
 * The switch budget: at most {@code maxSwitches} switches carried out in any period (an hour in
 * the default policy); a switch the layers within propose beyond it waits, as
 * {@link DecisionReason#BUDGET_EXHAUSTED}, until the oldest leaves the period. Every switch
 * carried out counts (an operator's and a rollback too), but a rollback is never held back: it
 * undoes a switch that lost its trial. A move out of trouble ({@link DecisionReason#leavesTrouble()})
 * counts and is held back like any other: the budget is the one bound no sequence of decisions can
 * exceed, so a spent budget can keep callers waiting for a pool until its oldest switch is an hour
 * old (the move is then made at the first window after, since its windows kept agreeing). It takes
 * a load that changes regime every few minutes for an hour to spend it: a move out of trouble
 * doubles the dwell before the move back.
 */
final class BudgetPolicy extends PolicyDecorator {

    private final int maxSwitches;
    private final RecentEvents switches;

    BudgetPolicy(int maxSwitches, Duration period, StrategyPolicy inner) {
        super(inner);
        if (maxSwitches < 1) {
            throw new IllegalArgumentException("maxSwitches (" + maxSwitches + ") must be at least 1");
        }
        this.maxSwitches = maxSwitches;
        this.switches = new RecentEvents(period);
    }

    @Override
    public Decision decide(WindowSample window, long now) {
        Decision decision = this.inner.decide(window, now);
        if (!decision.isSwitch() || decision.reason() == DecisionReason.ROLLBACK) {
            return decision;
        }
        this.switches.expire(now);
        if (this.switches.size() >= this.maxSwitches) {
            return Decision.stay(now, decision.current(), DecisionReason.BUDGET_EXHAUSTED,
                    this.switches.size() + " switches in the last hour; " + decision.reason() + " waits");
        }
        return decision;
    }

    @Override
    public void onSwitch(Decision decision, boolean applied, boolean trial, long now) {
        if (applied) {
            this.switches.add(now);
        }
        super.onSwitch(decision, applied, trial, now);
    }
}
