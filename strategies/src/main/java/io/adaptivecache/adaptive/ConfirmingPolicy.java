package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

import static io.adaptivecache.adaptive.Figures.seconds;

/**
 * Confirmation and dwell, against flapping; leave trouble fast, return slowly. A proposed switch
 * made for a gain is carried out only when every counted window for a whole dwell (and at least
 * {@code confirmWindows} of them) proposed the same target, so a load that changes faster than
 * the dwell (a square wave, or a load hovering at a threshold) never completes a proposal; and no
 * sooner than a dwell after the last change (the first dwell counting from the first window
 * seen). The dwell doubles after each rollback, after each move out of trouble and after a switch
 * that could not be carried out (up to {@code maxDwell}), and halves back toward {@code dwell}
 * after each accepted trial; a proposal must still hold for {@code dwell}.
 * <p>A move out of trouble ({@link DecisionReason#leavesTrouble()}: a pool that makes callers
 * wait) is carried out once {@code confirmWindows} consecutive counted windows proposed it,
 * however recent the last change, as TCP leaves a congested window at the first losses and grows
 * back slowly: callers waiting for a pool cannot wait for a dwell. Only after a switch that could
 * not be carried out does it wait for the (doubled) dwell, so that an unreachable server is not
 * asked for new connections every few windows. Going back (a gain) then waits for the doubled
 * dwell, so a load that surges and calms again faster than that moves once and stays.
 * <p>What the layers within answer other than a proposal (a window that does not count, a
 * suppression, a trial and its verdict) passes as it is, and neither confirms nor breaks a
 * proposal made for a gain; a trial or a suppression does break a run of windows in trouble, since
 * the layers within answer one only when the rules found no trouble in the window.
 */
final class ConfirmingPolicy extends PolicyDecorator {

    /** The layers' own answers, which are not proposals of the rules. */
    private static final Set<DecisionReason> NOT_PROPOSALS = EnumSet.of(DecisionReason.SUPPRESSED, DecisionReason.DISTURBED,
            DecisionReason.INSUFFICIENT_DATA, DecisionReason.TRIAL, DecisionReason.TRIAL_ACCEPTED, DecisionReason.ROLLBACK);

    /** Answers from windows the rules did not judge: they neither make nor break a run of windows in trouble. */
    private static final Set<DecisionReason> UNJUDGED = EnumSet.of(DecisionReason.DISTURBED, DecisionReason.INSUFFICIENT_DATA,
            DecisionReason.TRIAL_ACCEPTED);

    private final int confirmWindows;
    private final long stabilityNanos;
    private final long maxDwellNanos;
    private long dwellNanos;
    private long lastChangeNanos = Long.MIN_VALUE;
    private @Nullable StrategySpec candidate;
    private @Nullable DecisionReason candidateReason;
    private int candidateWindows;
    private long candidateSinceNanos;
    private int troubleWindows;
    private boolean lastSwitchFailed;

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
        if (decision.isSwitch() && decision.reason().leavesTrouble()) {
            return escape(decision, now);
        }
        if (!UNJUDGED.contains(decision.reason())) {
            this.troubleWindows = 0;
        }
        return NOT_PROPOSALS.contains(decision.reason()) ? decision : confirm(decision, window, now);
    }

    /** A move out of trouble: {@code confirmWindows} consecutive counted windows, no dwell (unless the last switch failed). */
    private Decision escape(Decision proposal, long now) {
        // It breaks a proposal made for a gain, as any other answer of the rules would.
        this.candidate = null;
        this.candidateWindows = 0;
        this.troubleWindows++;
        long sinceChange = now - this.lastChangeNanos;
        if (this.lastSwitchFailed && sinceChange < this.dwellNanos) {
            return dwell(now, proposal.current(), sinceChange);
        }
        if (this.troubleWindows < this.confirmWindows) {
            return Decision.stay(now, proposal.current(), DecisionReason.CONFIRMING, proposal.reason() + " toward " + proposal.target()
                    + " in " + this.troubleWindows + " consecutive windows (leaving trouble needs " + this.confirmWindows
                    + ", not the dwell): " + proposal.evidence());
        }
        return proposal;
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
        this.troubleWindows = 0;
        this.lastChangeNanos = now;
        this.lastSwitchFailed = !applied;
        if (!applied) {
            backOff(); // the new strategy could not be opened: back off before trying again
        }
        else if (decision.reason().leavesTrouble()) {
            backOff(); // the strategy left made callers wait at this load: going back waits twice as long
        }
        super.onSwitch(decision, applied, trial, now);
    }
}
