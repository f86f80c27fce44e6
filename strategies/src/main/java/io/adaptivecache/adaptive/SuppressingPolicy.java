package io.adaptivecache.adaptive;

import java.time.Duration;

import io.adaptivecache.metrics.WindowSample;

/**
 * Suspends changes while the load flaps between regimes: once {@code suppressAfterRollbacks}
 * rollbacks (trials the layers within lost) fall within an hour, every window answers
 * {@link DecisionReason#SUPPRESSED} for {@code suppression}, and the layers within see none.
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
        if (isSuppressed(now)) {
            return Decision.stay(now, window.strategy(), DecisionReason.SUPPRESSED,
                    "changes suspended after " + this.rollbacks.size() + " rollbacks within an hour");
        }
        Decision decision = this.inner.decide(window, now);
        if (decision.reason() == DecisionReason.ROLLBACK) {
            this.rollbacks.add(now);
            if (this.rollbacks.size() >= this.suppressAfterRollbacks) {
                this.suppressing = true;
                this.suppressedUntil = now + this.suppressionNanos;
            }
        }
        return decision;
    }

    @Override
    public boolean isSuppressed(long nowNanos) {
        return this.suppressing && nowNanos - this.suppressedUntil < 0;
    }
}
