package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static io.adaptivecache.adaptive.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;

/** Trial and rollback alone, around a scripted policy, on a fake clock of one-second windows. */
class TrialPolicyTests {

    private static final StrategySpec SINGLE = StrategySpec.single();
    private static final StrategySpec MULTI = StrategySpec.multi(4, SelectorType.ROUND_ROBIN);

    private final ScriptedPolicy inner = new ScriptedPolicy();
    /** 5 s trials, 15% tolerance, lost moves remembered for 60 s. */
    private final TrialPolicy trials = new TrialPolicy(Duration.ofSeconds(5), 0.15, Duration.ofSeconds(60), this.inner);

    private long now;

    /** Five windows of 64 callers at 50,000 calls/s on SINGLE (1.28 ms a call), then the switch to MULTI carried out. */
    private void switchToMultiOnTrial(DecisionReason reason, boolean trial) {
        this.inner.staying(DecisionReason.STEADY);
        for (int i = 0; i < 5; i++) {
            next(SINGLE, 50_000, 64);
        }
        this.inner.proposing(MULTI, reason);
        Decision grow = next(SINGLE, 50_000, 64);
        assertThat(grow.isSwitch()).isTrue();
        this.trials.onSwitch(grow, true, trial, this.now);
        this.inner.staying(DecisionReason.STEADY);
    }

    private Decision next(StrategySpec live, double throughput, double concurrency) {
        this.now += SECOND;
        return this.trials.decide(window(this.now, live, throughput, concurrency), this.now);
    }

    private List<DecisionReason> run(StrategySpec live, double throughput, double concurrency, int windows) {
        List<DecisionReason> reasons = new ArrayList<>();
        for (int i = 0; i < windows; i++) {
            reasons.add(next(live, throughput, concurrency).reason());
        }
        return reasons;
    }

    @Test
    void aCandidateSlowerThanTheToleranceIsRolledBackWhenItsTrialEnds() {
        switchToMultiOnTrial(DecisionReason.CONNECTION_SATURATED, true);
        long switchedAt = this.now;
        int seen = this.inner.windowsSeen;

        // 35,000 calls/s at the same 64 callers: 1.83 ms a call, over the limit of 1.28 / 0.85 = 1.51 ms.
        List<DecisionReason> reasons = run(MULTI, 35_000, 64, 4);
        Decision verdict = next(MULTI, 35_000, 64);

        assertThat(reasons).containsOnly(DecisionReason.TRIAL);
        assertThat(this.inner.windowsSeen).as("no proposals during a trial").isEqualTo(seen);
        assertThat(verdict.reason()).isEqualTo(DecisionReason.ROLLBACK);
        assertThat(verdict.target()).isEqualTo(SINGLE);
        assertThat(verdict.atNanos() - switchedAt).isEqualTo(5 * SECOND);
    }

    @Test
    void aCandidateWithinTheToleranceIsAccepted() {
        switchToMultiOnTrial(DecisionReason.CONNECTION_SATURATED, true);

        // 45,000 calls/s: 1.42 ms a call, 11% slower, within the 15%.
        List<DecisionReason> reasons = run(MULTI, 45_000, 64, 5);

        assertThat(reasons).endsWith(DecisionReason.TRIAL_ACCEPTED);
        assertThat(run(MULTI, 45_000, 64, 3)).as("judged once").containsOnly(DecisionReason.STEADY);
    }

    @Test
    void withoutATrialNothingIsJudged() {
        switchToMultiOnTrial(DecisionReason.CONNECTION_SATURATED, false);

        assertThat(run(MULTI, 10_000, 64, 10)).containsOnly(DecisionReason.STEADY);
    }

    @Test
    void aMoveForAGainThatLostIsRejectedAtTheSameLoadUntilTheLoadOrTheMemoryChanges() {
        switchToMultiOnTrial(DecisionReason.CONNECTION_SATURATED, true);
        run(MULTI, 35_000, 64, 4);
        Decision rollback = next(MULTI, 35_000, 64);
        this.trials.onSwitch(rollback, true, true, this.now);
        this.inner.proposing(MULTI, DecisionReason.CONNECTION_SATURATED);

        Decision again = next(SINGLE, 50_000, 64);
        assertThat(again.reason()).isEqualTo(DecisionReason.REJECTED_AT_THIS_LOAD);
        assertThat(again.isSwitch()).isFalse();
        assertThat(again.evidence()).startsWith("CONNECTION_SATURATED toward " + MULTI + ", which lost its trial 1 s ago")
                .endsWith("scripted CONNECTION_SATURATED");
        assertThat(next(SINGLE, 150_000, 192).isSwitch()).as("three times the callers").isTrue();
        this.now += 60 * SECOND;
        assertThat(next(SINGLE, 50_000, 64).isSwitch()).as("the same load after the longest dwell").isTrue();
    }

    @Test
    void aMoveAwayFromTroubleThatLostIsNotRemembered() {
        switchToMultiOnTrial(DecisionReason.POOL_CONTENTION, true);
        run(MULTI, 35_000, 64, 4);
        assertThat(next(MULTI, 35_000, 64).reason()).isEqualTo(DecisionReason.ROLLBACK);
        this.inner.proposing(MULTI, DecisionReason.POOL_CONTENTION);

        assertThat(next(SINGLE, 50_000, 64).isSwitch()).isTrue();
    }
}
