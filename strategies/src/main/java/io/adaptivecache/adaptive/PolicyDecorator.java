package io.adaptivecache.adaptive;

import java.util.Objects;
import java.util.function.Function;

import io.adaptivecache.metrics.WindowSample;

/**
 * One layer of the default policy around an inner one, in the manner of Netflix
 * concurrency-limits' limit decorators: each layer owns one concern (which windows count, a
 * trial, suppression, confirmation and dwell, the switch budget), asks the layer within, and
 * may hold back or replace what it answers. Layers learn of each other only through the
 * decisions that pass them on the way out and the switches reported to every layer
 * ({@link #onSwitch}), which each forwards inward. {@link ThresholdStrategyPolicy} is the shell
 * around the outermost layer: a decorator that adds no concern of its own.
 */
abstract class PolicyDecorator implements StrategyPolicy {

    /** The layer within. */
    final StrategyPolicy inner;

    PolicyDecorator(StrategyPolicy inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    @Override
    public void onSwitch(Decision decision, boolean applied, boolean trial, long nowNanos) {
        this.inner.onSwitch(decision, applied, trial, nowNanos);
    }

    @Override
    public boolean isSuppressed(long nowNanos) {
        return this.inner.isSuppressed(nowNanos);
    }

    /**
     * The innermost layer: the rules' proposal for each window, stamped with the time; it keeps
     * no history, so it has nothing to learn from switches.
     * @param rules proposes for one window
     * @return the policy
     */
    static StrategyPolicy proposing(Function<WindowSample, Proposal> rules) {
        Objects.requireNonNull(rules, "rules");
        return new StrategyPolicy() {

            @Override
            public Decision decide(WindowSample window, long nowNanos) {
                return rules.apply(window).at(nowNanos);
            }

            @Override
            public void onSwitch(Decision decision, boolean applied, boolean trial, long nowNanos) {
                // No history to keep.
            }
        };
    }
}
