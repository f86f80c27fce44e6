package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

import static io.adaptivecache.adaptive.Figures.latency;
import static io.adaptivecache.adaptive.Figures.seconds;

/**
 * Trial and rollback. Each switch carried out (with a trial asked for, not itself a rollback, and
 * not a move out of trouble) is on trial for {@code trial} against the incumbent's recent windows
 * (up to ten), and rolled back ({@link DecisionReason#ROLLBACK}) only if the median of its
 * windows' mean latencies at comparable load exceeds the incumbent's median divided by
 * {@code 1 - trialTolerance}; else it is kept ({@link DecisionReason#TRIAL_ACCEPTED}). A move
 * made for a gain (a blocking pool, large values, fewer or more shared connections) that lost is
 * not proposed again while the load stays like the one it lost at ({@link LostTrials}, for
 * {@code maxDwell}): the layer within proposes, this one answers
 * {@link DecisionReason#REJECTED_AT_THIS_LOAD} instead. A move out of trouble is never held back
 * that way.
 * <p>Giving up connections at the cap ({@link DecisionReason#CONSOLIDATION}) is judged with no
 * tolerance: it is tried for speed alone, so it is kept only if its calls are no slower than the
 * incumbent's. When it is kept at comparable load, the connections it gave up are remembered as a
 * move that lost at this load, since the rules would otherwise propose growing back to them in the
 * next windows; either verdict stands while the load stays like this one, not only for
 * {@code maxDwell}, so that a steady load pays for the question once.
 * <p>A move out of trouble ({@link DecisionReason#leavesTrouble()}: away from a pool that makes
 * callers wait) is not on trial: a rollback could only send the callers back to the pool that made
 * them wait. During a trial the layer within is still asked about every window, and a move out of
 * trouble it proposes passes at once, ending the trial without a verdict when it is carried out
 * (a pool the load outgrew during its trial, as when callers surge from 8 to 200, is left within a
 * few windows rather than at the end of the trial); anything else it proposes waits for the verdict.
 * <p>Trials are judged on latency, not throughput: in production the arrivals are set by the
 * service's traffic (an open loop), so a strategy changes how long each call takes, and with it
 * how many calls are in flight, but not how many calls there are per second; and a single bursty
 * caller's throughput moves more from window to window than any tolerance worth having. Mean
 * latency is the inverse of throughput per call in flight (Little's law), so in a closed loop (a
 * fixed number of busy callers) it falls exactly as throughput rises. The load counts as changed
 * during a trial (and the candidate is kept without comparison) only when concurrency and
 * throughput both moved the same way by a factor of 2 or more: more callers or arrivals raise
 * both, fewer lower both, while a strategy alone moves them apart (fewer calls per second at the
 * same concurrency in a closed loop, more calls in flight at the same rate in an open loop). A
 * trial during which the round trip (a window's shortest call) moved 3x, and the mean call the
 * same way by at least half as much, is kept without comparison too: the network changed, not the
 * strategy. (The shortest call alone would not tell: one connection carrying 200 calls makes each
 * wait behind others, so its shortest call is a millisecond where two connections' is 30 µs.)
 */
final class TrialPolicy extends PolicyDecorator {

    private static final int BASELINE_WINDOWS = 10;

    /**
     * Moves made for a gain while the incumbent serves its callers: one that loses its trial is
     * remembered with its load. (Moves out of trouble are never on trial; an operator's trial that
     * lost is not remembered either: the policy did not propose it.)
     */
    private static final Set<DecisionReason> SPECULATIVE = EnumSet.of(DecisionReason.BLOCKING_FITS, DecisionReason.LARGE_VALUES,
            DecisionReason.CONNECTIONS_IDLE, DecisionReason.CONNECTION_SATURATED, DecisionReason.CONSOLIDATION);

    private final long trialNanos;
    private final double tolerance;
    private final LostTrials lostTrials;
    private final Deque<WindowSample> incumbentWindows = new ArrayDeque<>();
    private final List<WindowSample> trialWindows = new ArrayList<>();
    private @Nullable Trial trial;

    TrialPolicy(Duration trial, double tolerance, Duration maxDwell, StrategyPolicy inner) {
        super(inner);
        this.trialNanos = trial.toNanos();
        this.tolerance = tolerance;
        this.lostTrials = new LostTrials(maxDwell);
    }

    @Override
    public Decision decide(WindowSample window, long now) {
        Trial running = this.trial;
        if (running != null) {
            Decision verdict = judge(running, window, now);
            if (verdict != null && verdict.reason() == DecisionReason.TRIAL) {
                // Trouble does not wait for the verdict: the candidate's callers are waiting meanwhile.
                Decision proposal = this.inner.decide(window, now);
                return proposal.isSwitch() && proposal.reason().leavesTrouble() ? proposal : verdict;
            }
            if (verdict != null) {
                return verdict;
            }
        }
        this.incumbentWindows.addLast(window);
        while (this.incumbentWindows.size() > BASELINE_WINDOWS) {
            this.incumbentWindows.removeFirst();
        }
        Decision proposal = this.inner.decide(window, now);
        // Callers waiting for a pool are never kept there by a memory of how another move fared.
        LostTrials.Lost lost = proposal.isSwitch() && !proposal.reason().leavesTrouble()
                ? this.lostTrials.matching(proposal.target(), window, now) : null;
        if (lost == null) {
            return proposal;
        }
        return Decision.stay(now, proposal.current(), DecisionReason.REJECTED_AT_THIS_LOAD, proposal.reason() + " toward "
                + proposal.target() + ", which lost a trial " + seconds(now - lost.atNanos()) + " s ago at a load like this one ("
                + String.format(Locale.ROOT, "concurrency %.1f, now %.1f", lost.concurrency(), window.concurrency()) + "): "
                + proposal.evidence());
    }

    /** Null when the trial is over and the window should be judged normally. */
    private @Nullable Decision judge(Trial running, WindowSample window, long now) {
        if (!window.strategy().equals(running.candidate())) {
            this.trial = null; // replaced meanwhile (an operator): nothing left to judge
            return null;
        }
        this.trialWindows.add(window);
        if (now - running.until() < 0) {
            return Decision.stay(now, window.strategy(), DecisionReason.TRIAL, "trial of " + running.candidate() + " against "
                    + running.incumbent() + ", " + this.trialWindows.size() + " windows so far");
        }
        this.trial = null;
        Medians measured = Medians.of(this.trialWindows);
        this.trialWindows.clear();
        Medians baseline = running.baseline();
        // Giving up connections is tried for speed alone: it must not cost any.
        double tolerance = running.reason() == DecisionReason.CONSOLIDATION ? 0 : this.tolerance;
        double limit = baseline.latency() / (1 - tolerance);
        String figures = String.format(Locale.ROOT, "median mean latency %s on %s vs %s on %s (limit %s); %.0f vs %.0f calls/s,"
                + " concurrency %.1f vs %.1f", latency(measured.latency()), running.candidate(), latency(baseline.latency()),
                running.incumbent(), latency(limit), measured.throughput(), baseline.throughput(), measured.concurrency(),
                baseline.concurrency());
        double concurrencyRatio = measured.concurrency() / Math.max(1e-9, baseline.concurrency());
        double throughputRatio = measured.throughput() / Math.max(1e-9, baseline.throughput());
        // More callers (or arrivals) raise both figures and fewer lower both; a strategy alone moves them apart.
        boolean loadChanged = (concurrencyRatio >= 2.0 && throughputRatio >= 2.0) || (concurrencyRatio <= 0.5 && throughputRatio <= 0.5)
                // The shortest call moved 3x and the mean with it: the network changed (queueing moves the shortest alone).
                || Figures.networkChanged(baseline.roundTrip(), baseline.latency(), measured.roundTrip(), measured.latency());
        boolean comparableLoad = baseline.latency() > 0 && !loadChanged;
        if (comparableLoad && measured.latency() > limit) {
            // A move made for a gain (not away from measured trouble) that lost: the same load must not propose it again.
            if (SPECULATIVE.contains(running.reason())) {
                // At the incumbent's load: the windows that would propose the move again are the incumbent's.
                this.lostTrials.add(running.candidate(), baseline, now, running.reason() == DecisionReason.CONSOLIDATION);
            }
            return new Decision(now, window.strategy(), running.incumbent(), DecisionReason.ROLLBACK, figures);
        }
        if (comparableLoad && running.reason() == DecisionReason.CONSOLIDATION) {
            // Fewer connections served at least as well: the rules would grow back at once, so the connections given up
            // are remembered as a move that lost at this load.
            this.lostTrials.add(running.incumbent(), measured, now, true);
        }
        this.incumbentWindows.clear();
        return Decision.stay(now, window.strategy(), DecisionReason.TRIAL_ACCEPTED,
                figures + (comparableLoad ? "" : "; load changed, kept without comparison"));
    }

    @Override
    public void onSwitch(Decision decision, boolean applied, boolean trial, long now) {
        super.onSwitch(decision, applied, trial, now);
        if (!applied) {
            return; // nothing changed: a running trial goes on
        }
        List<WindowSample> baseline = List.copyOf(this.incumbentWindows);
        this.incumbentWindows.clear();
        this.trialWindows.clear();
        boolean judged = trial && decision.reason() != DecisionReason.ROLLBACK && !decision.reason().leavesTrouble();
        this.trial = judged && !baseline.isEmpty()
                ? new Trial(decision.current(), decision.target(), decision.reason(), now + this.trialNanos, Medians.of(baseline))
                : null;
    }

    /** A switch on trial, and the incumbent's figures it is judged against. */
    private record Trial(StrategySpec incumbent, StrategySpec candidate, DecisionReason reason, long until, Medians baseline) {
    }
}
