package io.adaptivecache.adaptive;

import java.time.Duration;

import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static io.adaptivecache.adaptive.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;

/** The switch budget alone, around a scripted policy, on a fake clock. */
class BudgetPolicyTests {

    private static final StrategySpec SINGLE = StrategySpec.single();
    private static final StrategySpec MULTI = StrategySpec.multi(2, SelectorType.ROUND_ROBIN);
    private static final long MINUTE = 60 * SECOND;

    private final ScriptedPolicy inner = new ScriptedPolicy().proposing(MULTI, DecisionReason.CONNECTION_SATURATED);
    private final BudgetPolicy budget = new BudgetPolicy(3, Duration.ofHours(1), this.inner);

    private Decision decideAt(long now) {
        return this.budget.decide(window(now, SINGLE, 50_000, 64), now);
    }

    private void switchAt(long now, boolean applied) {
        this.budget.onSwitch(decideAt(now), applied, true, now);
    }

    @Test
    void theFourthSwitchInThePeriodWaitsUntilTheFirstLeavesIt() {
        switchAt(MINUTE, true);
        switchAt(2 * MINUTE, true);
        switchAt(3 * MINUTE, true);

        Decision fourth = decideAt(4 * MINUTE);
        assertThat(fourth.reason()).isEqualTo(DecisionReason.BUDGET_EXHAUSTED);
        assertThat(fourth.isSwitch()).isFalse();
        assertThat(fourth.evidence()).isEqualTo("3 switches in the last hour; CONNECTION_SATURATED waits");
        assertThat(decideAt(MINUTE + Duration.ofHours(1).toNanos()).reason()).as("the first switch still within the hour")
                .isEqualTo(DecisionReason.BUDGET_EXHAUSTED);
        Decision later = decideAt(MINUTE + Duration.ofHours(1).toNanos() + SECOND);
        assertThat(later.isSwitch()).as("the first switch has left the hour").isTrue();
        assertThat(later.reason()).isEqualTo(DecisionReason.CONNECTION_SATURATED);
    }

    @Test
    void aRollbackIsNeverHeldBack() {
        switchAt(MINUTE, true);
        switchAt(2 * MINUTE, true);
        switchAt(3 * MINUTE, true);
        this.inner.proposing(MULTI, DecisionReason.ROLLBACK);

        assertThat(decideAt(4 * MINUTE).reason()).isEqualTo(DecisionReason.ROLLBACK);
    }

    @Test
    void switchesNotCarriedOutDoNotCount() {
        switchAt(MINUTE, false);
        switchAt(2 * MINUTE, false);
        switchAt(3 * MINUTE, false);

        assertThat(decideAt(4 * MINUTE).isSwitch()).isTrue();
        assertThat(this.inner.switchesHeard).as("every switch is passed inward").hasSize(3);
    }

    @Test
    void aMoveOutOfTroubleCountsAndIsHeldBackLikeAnyOther() {
        this.inner.proposing(MULTI, DecisionReason.POOL_SATURATED);
        switchAt(MINUTE, true);
        switchAt(2 * MINUTE, true);
        switchAt(3 * MINUTE, true);

        Decision fourth = decideAt(4 * MINUTE);
        assertThat(fourth.reason()).isEqualTo(DecisionReason.BUDGET_EXHAUSTED);
        assertThat(fourth.evidence()).isEqualTo("3 switches in the last hour; POOL_SATURATED waits");
    }
}
