package io.adaptivecache.adaptive;

import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/** A layer's inner policy for tests: answers what it was last told to, counts the windows it saw, records the switches it heard of. */
final class ScriptedPolicy implements StrategyPolicy {

    private @Nullable StrategySpec target;
    private DecisionReason reason = DecisionReason.STEADY;
    int windowsSeen;
    final List<Decision> switchesHeard = new ArrayList<>();

    /** From now on, proposes {@code target} for {@code reason}. */
    ScriptedPolicy proposing(StrategySpec target, DecisionReason reason) {
        this.target = target;
        this.reason = reason;
        return this;
    }

    /** From now on, stays, for {@code reason}. */
    ScriptedPolicy staying(DecisionReason reason) {
        this.target = null;
        this.reason = reason;
        return this;
    }

    @Override
    public Decision decide(WindowSample window, long nowNanos) {
        this.windowsSeen++;
        StrategySpec to = this.target == null ? window.strategy() : this.target;
        return new Decision(nowNanos, window.strategy(), to, this.reason, "scripted " + this.reason);
    }

    @Override
    public void onSwitch(Decision decision, boolean applied, boolean trial, long nowNanos) {
        this.switchesHeard.add(decision);
    }
}
