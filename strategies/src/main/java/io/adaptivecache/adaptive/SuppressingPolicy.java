package io.adaptivecache.adaptive;

import java.time.Duration;

import io.adaptivecache.metrics.WindowSample;

/**
 * Suspends changes while the load flaps between regimes: once {@code suppressAfterRollbacks}
 * rollbacks (trials the layers within lost) fall within an hour, every window answers
 * {@link DecisionReason#SUPPRESSED} for {@code suppression}, but for a move out of trouble
 * ({@link DecisionReason#leavesTrouble()}) and the verdict of a trial: suppression holds back moves
 * made for a gain, which are what flaps, never callers waiting for a pool. The layers within still
 * judge every window meanwhile, so that they can tell trouble.
 */
final class SuppressingPolicy extends PolicyDecorator {

    private static final Duration ROLLBACK_PERIOD = Duration.ofHours(1);

    private final int suppressAfterRollbacks;
    private final long suppressionNanos;
    private final RecentEvents rollbacks = new RecentEvents(ROLLBACK_PERIOD);
    private boolean suppressing;
    private long suppressedUntil;

    SuppressingPolicy(int suppressAfterRollbacks, Duration suppression, StrategyPolicy inner) {
        super(inner);
        this.suppressAfterRollbacks = suppressAfterRollbacks;
        this.suppressionNanos = suppression.toNanos();
    }

    @Override
    public Decision decide(WindowSample window, long now) {
        boolean suppressed = isSuppressed(now);
        Decision decision = this.inner.decide(window, now);
        if (suppressed && !passes(decision)) {
            return Decision.stay(now, window.strategy(), DecisionReason.SUPPRESSED,
                    "changes suspended after " + this.rollbacks.size() + " rollbacks within an hour");
        }
        if (decision.reason() == DecisionReason.ROLLBACK) {
            this.rollbacks.add(now);
            if (this.rollbacks.size() >= this.suppressAfterRollbacks) {
                this.suppressing = true;
                this.suppressedUntil = now + this.suppressionNanos;
            }
        }
        return decision;
    }

    /**
     * What passes a suppression: a move out of trouble, and a trial's verdict (an operator's trial can
     * run while changes are suspended; its rollback undoes a switch rather than making one).
     */
    private static boolean passes(Decision decision) {
        return (decision.isSwitch() && decision.reason().leavesTrouble()) || decision.reason() == DecisionReason.ROLLBACK
                || decision.reason() == DecisionReason.TRIAL_ACCEPTED;
    }

    @Override
    public boolean isSuppressed(long nowNanos) {
        return this.suppressing && nowNanos - this.suppressedUntil < 0;
    }
}
