package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static io.adaptivecache.adaptive.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;

/** Confirmation and dwell alone, around a scripted policy, on a fake clock of one-second windows. */
class ConfirmingPolicyTests {

    private static final StrategySpec SINGLE = StrategySpec.single();
    private static final StrategySpec MULTI = StrategySpec.multi(2, SelectorType.ROUND_ROBIN);
    private static final StrategySpec POOLED = StrategySpec.pooled(new PoolSettings(4, 4, 0, Duration.ofSeconds(1)));

    private final ScriptedPolicy inner = new ScriptedPolicy();
    /** Three windows and a 10 s dwell, up to 40 s. */
    private final ConfirmingPolicy confirming = new ConfirmingPolicy(3, Duration.ofSeconds(10), Duration.ofSeconds(40), this.inner);

    private Decision at(long second) {
        return this.confirming.decide(window(second * SECOND, SINGLE, 50_000, 64), second * SECOND);
    }

    /** Feeds a window a second from {@code from} while the inner policy proposes MULTI; the second of the first switch, or -1. */
    private long firstSwitchFrom(long from) {
        this.inner.proposing(MULTI, DecisionReason.CONNECTION_SATURATED);
        for (long second = from; second < from + 100; second++) {
            if (at(second).isSwitch()) {
                return second;
            }
        }
        return -1;
    }

    /**
     * Windows at 1 s and 30 s (past the first dwell), then the inner policy proposing MULTI in a
     * window a second from 100 s up to {@code until} (exclusive): a proposal part way to confirmed.
     */
    private void proposeAfterTheDwellUntil(long until) {
        at(1);
        at(30);
        this.inner.proposing(MULTI, DecisionReason.CONNECTION_SATURATED);
        for (long second = 100; second < until; second++) {
            at(second);
        }
    }

    @Test
    void theFirstDwellCountsFromTheFirstWindowSeen() {
        this.inner.proposing(MULTI, DecisionReason.CONNECTION_SATURATED);
        Decision first = at(1);

        assertThat(first.reason()).isEqualTo(DecisionReason.DWELL);
        assertThat(first.evidence()).isEqualTo("last change 0 s ago, dwell 10 s");
        assertThat(firstSwitchFrom(2)).as("a dwell after the first window, the proposal held throughout").isEqualTo(11);
    }

    @Test
    void aProposalMustHoldForAWholeDwellAndTheConfirmingWindows() {
        this.inner.staying(DecisionReason.STEADY);
        assertThat(at(1).reason()).isEqualTo(DecisionReason.DWELL);
        assertThat(at(30).reason()).as("past the dwell, a stay passes").isEqualTo(DecisionReason.STEADY);
        this.inner.proposing(MULTI, DecisionReason.CONNECTION_SATURATED);

        Decision confirming = at(100);
        assertThat(confirming.reason()).isEqualTo(DecisionReason.CONFIRMING);
        assertThat(confirming.evidence()).startsWith("CONNECTION_SATURATED toward " + MULTI + " in 1 windows over 1 s (needs 3 windows over 10 s)");
        // The window ending at 100 s began at 99 s: the proposal has held a dwell in the window ending at 109 s.
        assertThat(firstSwitchFrom(101)).isEqualTo(109);
    }

    @Test
    void aBreakInTheProposalStartsItsConfirmationAgain() {
        proposeAfterTheDwellUntil(105);
        this.inner.staying(DecisionReason.STEADY);
        assertThat(at(105).reason()).isEqualTo(DecisionReason.STEADY);

        assertThat(firstSwitchFrom(106)).as("a dwell from the window that began at 105 s").isEqualTo(115);
    }

    @Test
    void answersOtherThanProposalsNeitherConfirmNorBreakOne() {
        proposeAfterTheDwellUntil(103);
        for (DecisionReason passing : new DecisionReason[] {DecisionReason.DISTURBED, DecisionReason.INSUFFICIENT_DATA,
                DecisionReason.SUPPRESSED, DecisionReason.TRIAL}) {
            this.inner.staying(passing);
            assertThat(at(103).reason()).isEqualTo(passing);
        }

        assertThat(firstSwitchFrom(104)).as("still a dwell from the window that began at 99 s").isEqualTo(109);
    }

    @Test
    void aSwitchNotCarriedOutDoublesTheDwell() {
        long switched = firstSwitchFrom(1);
        this.confirming.onSwitch(at(switched), false, true, switched * SECOND);

        assertThat(firstSwitchFrom(switched + 1) - switched).isEqualTo(20);
        assertThat(this.inner.switchesHeard).as("passed inward").hasSize(1);
    }

    @Test
    void aRollbackDoublesTheDwellUpToTheLongestAndAnAcceptedTrialHalvesIt() {
        long switched = firstSwitchFrom(1);
        this.confirming.onSwitch(at(switched), true, true, switched * SECOND);
        this.inner.proposing(SINGLE, DecisionReason.ROLLBACK);
        for (int i = 0; i < 3; i++) {
            assertThat(at(switched + 1).reason()).as("a rollback passes at once").isEqualTo(DecisionReason.ROLLBACK);
        }
        this.confirming.onSwitch(at(switched + 1), true, false, (switched + 1) * SECOND);
        this.inner.staying(DecisionReason.STEADY);
        assertThat(at(switched + 2).evidence()).as("10 s doubled three times, capped at 40 s")
                .isEqualTo("last change 1 s ago, dwell 40 s");

        this.inner.staying(DecisionReason.TRIAL_ACCEPTED);
        at(switched + 3);
        this.inner.staying(DecisionReason.STEADY);
        assertThat(at(switched + 4).evidence()).isEqualTo("last change 3 s ago, dwell 20 s");
    }

    /** A window on POOLED at {@code second}, the inner policy answering {@code reason} (toward MULTI for trouble). */
    private Decision onPool(long second, DecisionReason reason) {
        if (reason.leavesTrouble()) {
            this.inner.proposing(MULTI, reason);
        }
        else {
            this.inner.staying(reason);
        }
        return this.confirming.decide(window(second * SECOND, POOLED, 20_000, 64), second * SECOND);
    }

    /**
     * A steady window, then three of pool contention: the third is the move out of trouble, made at
     * 4 s and reported to the policy as carried out or not.
     */
    private void leaveThePoolAtFourSeconds(boolean carriedOut) {
        onPool(1, DecisionReason.STEADY);
        onPool(2, DecisionReason.POOL_CONTENTION);
        onPool(3, DecisionReason.POOL_CONTENTION);
        Decision leave = onPool(4, DecisionReason.POOL_CONTENTION);
        assertThat(leave.isSwitch()).as("the third window of trouble moves").isTrue();
        this.confirming.onSwitch(leave, carriedOut, true, 4 * SECOND);
    }

    @Test
    void aMoveOutOfTroubleIsMadeInTheThirdConsecutiveWindowWithoutWaitingForTheDwell() {
        onPool(1, DecisionReason.STEADY);
        Decision first = onPool(2, DecisionReason.POOL_CONTENTION);
        Decision second = onPool(3, DecisionReason.POOL_SATURATED);
        Decision third = onPool(4, DecisionReason.POOL_CONTENTION);

        assertThat(first.reason()).isEqualTo(DecisionReason.CONFIRMING);
        assertThat(first.evidence()).isEqualTo("POOL_CONTENTION toward " + MULTI
                + " in 1 consecutive windows (leaving trouble needs 3, not the dwell): scripted POOL_CONTENTION");
        assertThat(second.reason()).isEqualTo(DecisionReason.CONFIRMING);
        assertThat(third.isSwitch()).as("3 s after the first window, within the 10 s dwell").isTrue();
        assertThat(third.reason()).isEqualTo(DecisionReason.POOL_CONTENTION);
    }

    @Test
    void aWindowWithoutTroubleBreaksTheRunButAWindowThatDoesNotCountDoesNot() {
        onPool(1, DecisionReason.STEADY);
        List<Decision> decisions = new ArrayList<>();
        long second = 2;
        for (DecisionReason reason : new DecisionReason[] {DecisionReason.POOL_CONTENTION, DecisionReason.POOL_CONTENTION,
                DecisionReason.STEADY, DecisionReason.POOL_CONTENTION, DecisionReason.POOL_CONTENTION, DecisionReason.TRIAL,
                DecisionReason.POOL_CONTENTION, DecisionReason.POOL_CONTENTION, DecisionReason.DISTURBED,
                DecisionReason.INSUFFICIENT_DATA, DecisionReason.POOL_CONTENTION}) {
            decisions.add(onPool(second++, reason));
        }

        // A steady window, or a trial's (the rules found no trouble in it), starts the run again; a window not judged does not.
        assertThat(decisions.subList(0, decisions.size() - 1)).noneMatch(Decision::isSwitch);
        assertThat(decisions.get(decisions.size() - 1).isSwitch()).isTrue();
    }

    @Test
    void aMoveOutOfTroubleDoublesTheDwellBeforeAMoveForAGain() {
        leaveThePoolAtFourSeconds(true);

        this.inner.staying(DecisionReason.STEADY);
        assertThat(at(5).evidence()).isEqualTo("last change 1 s ago, dwell 20 s");
        // The move back, for a gain: a dwell (20 s) after the change, the proposal held a whole 10 s.
        assertThat(firstSwitchFrom(6)).isEqualTo(24);
    }

    @Test
    void afterASwitchThatCouldNotBeCarriedOutAMoveOutOfTroubleWaitsForTheDoubledDwell() {
        leaveThePoolAtFourSeconds(false);

        long second = 5;
        while (!onPool(second, DecisionReason.POOL_CONTENTION).isSwitch() && second < 100) {
            second++;
        }
        assertThat(second - 4).as("the server could not be reached: not asked again before the dwell, doubled").isEqualTo(20);
    }

    @Test
    void aWindowOfTroubleBreaksAProposalForAGain() {
        proposeAfterTheDwellUntil(105);
        this.inner.proposing(StrategySpec.multi(4, SelectorType.ROUND_ROBIN), DecisionReason.POOL_CONTENTION);
        assertThat(at(105).reason()).isEqualTo(DecisionReason.CONFIRMING);

        assertThat(firstSwitchFrom(106)).as("a dwell from the window that began at 105 s").isEqualTo(115);
    }
}
