package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

import static io.adaptivecache.adaptive.Figures.seconds;

/**
 * Confirmation and dwell, against flapping. A proposed switch is carried out only when every
 * counted window for a whole dwell (and at least {@code confirmWindows} of them) proposed the same
 * target, so a load that changes faster than the dwell (a square wave, or a load hovering at a
 * threshold) never completes a proposal; and no sooner than a dwell after the last change (the
 * first dwell counting from the first window seen). The dwell doubles after each rollback and
 * after a switch that could not be carried out (up to {@code maxDwell}), and halves back toward
 * {@code dwell} after each accepted trial; a proposal must still hold for {@code dwell}.
 * <p>What the layers within answer other than a proposal (a window that does not count, a
 * suppression, a trial and its verdict) passes as it is, and neither confirms nor breaks one.
 */
final class ConfirmingPolicy extends PolicyDecorator {

    /** The layers' own answers, which are not proposals of the rules. */
    private static final Set<DecisionReason> NOT_PROPOSALS = EnumSet.of(DecisionReason.SUPPRESSED, DecisionReason.DISTURBED,
            DecisionReason.INSUFFICIENT_DATA, DecisionReason.TRIAL, DecisionReason.TRIAL_ACCEPTED, DecisionReason.ROLLBACK);

    private final int confirmWindows;
    private final long stabilityNanos;
    private final long maxDwellNanos;
    private long dwellNanos;
    private long lastChangeNanos = Long.MIN_VALUE;
    private @Nullable StrategySpec candidate;
    private @Nullable DecisionReason candidateReason;
    private int candidateWindows;
    private long candidateSinceNanos;

    ConfirmingPolicy(int confirmWindows, Duration dwell, Duration maxDwell, StrategyPolicy inner) {
        super(inner);
        if (confirmWindows < 1 || dwell.isNegative() || maxDwell.compareTo(dwell) < 0) {
            throw new IllegalArgumentException("confirmWindows must be at least 1, dwell not negative, maxDwell at least dwell");
        }
        this.confirmWindows = confirmWindows;
        this.stabilityNanos = dwell.toNanos();
        this.maxDwellNanos = maxDwell.toNanos();
        this.dwellNanos = this.stabilityNanos;
    }

    @Override
    public Decision decide(WindowSample window, long now) {
        if (this.lastChangeNanos == Long.MIN_VALUE) {
            this.lastChangeNanos = now; // the first dwell counts from the first window seen
        }
        Decision decision = this.inner.decide(window, now);
        if (decision.reason() == DecisionReason.ROLLBACK) {
            backOff();
        }
        else if (decision.reason() == DecisionReason.TRIAL_ACCEPTED) {
            this.dwellNanos = Math.max(this.stabilityNanos, this.dwellNanos / 2);
        }
        return NOT_PROPOSALS.contains(decision.reason()) ? decision : confirm(decision, window, now);
    }

    /** Every proposal is judged, during the dwell too: it must hold without a break for a whole dwell. */
    private Decision confirm(Decision proposal, WindowSample window, long now) {
        long sinceChange = now - this.lastChangeNanos;
        if (!proposal.isSwitch()) {
            this.candidate = null;
            this.candidateWindows = 0;
            return sinceChange < this.dwellNanos ? dwell(now, proposal.current(), sinceChange) : proposal;
        }
        if (proposal.target().equals(this.candidate)) {
            this.candidateWindows++;
        }
        else {
            this.candidate = proposal.target();
            this.candidateReason = proposal.reason();
            this.candidateWindows = 1;
            this.candidateSinceNanos = window.startNanos();
        }
        if (sinceChange < this.dwellNanos) {
            return dwell(now, proposal.current(), sinceChange);
        }
        long held = window.endNanos() - this.candidateSinceNanos;
        if (this.candidateWindows < this.confirmWindows || held < this.stabilityNanos) {
            return Decision.stay(now, proposal.current(), DecisionReason.CONFIRMING, this.candidateReason + " toward " + this.candidate
                    + " in " + this.candidateWindows + " windows over " + seconds(held) + " s (needs " + this.confirmWindows
                    + " windows over " + seconds(this.stabilityNanos) + " s): " + proposal.evidence());
        }
        return proposal;
    }

    private Decision dwell(long now, StrategySpec current, long sinceChange) {
        return Decision.stay(now, current, DecisionReason.DWELL,
                "last change " + seconds(sinceChange) + " s ago, dwell " + seconds(this.dwellNanos) + " s");
    }

    private void backOff() {
        this.dwellNanos = Math.min(this.dwellNanos * 2, this.maxDwellNanos);
    }

    @Override
    public void onSwitch(Decision decision, boolean applied, boolean trial, long now) {
        this.candidate = null;
        this.candidateWindows = 0;
        this.lastChangeNanos = now;
        if (!applied) {
            backOff(); // the new strategy could not be opened: back off before trying again
        }
        super.onSwitch(decision, applied, trial, now);
    }
}
