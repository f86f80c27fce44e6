package io.adaptivecache.adaptive;

import io.adaptivecache.metrics.WindowSample;

/**
 * Lets only windows worth judging through: a disturbed window (one that overlapped a switch,
 * connection failures or a long pause) or a thin one (too few calls) counts neither for nor
 * against a change, nor in a trial; the layers within never see it.
 */
final class CountedWindowsPolicy extends PolicyDecorator {

    private final long minCallsPerWindow;

    CountedWindowsPolicy(long minCallsPerWindow, StrategyPolicy inner) {
        super(inner);
        this.minCallsPerWindow = minCallsPerWindow;
    }

    @Override
    public Decision decide(WindowSample window, long now) {
        if (window.disturbed()) {
            return Decision.stay(now, window.strategy(), DecisionReason.DISTURBED, window.disturbance());
        }
        if (window.calls() < this.minCallsPerWindow) {
            return Decision.stay(now, window.strategy(), DecisionReason.INSUFFICIENT_DATA,
                    window.calls() + " calls < " + this.minCallsPerWindow);
        }
        return this.inner.decide(window, now);
    }
}
