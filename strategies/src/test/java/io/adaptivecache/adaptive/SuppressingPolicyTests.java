package io.adaptivecache.adaptive;

import java.time.Duration;

import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static io.adaptivecache.adaptive.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;

/** Suppression after repeated rollbacks, alone, around a scripted policy, on a fake clock. */
class SuppressingPolicyTests {

    private static final StrategySpec MULTI = StrategySpec.multi(2, SelectorType.ROUND_ROBIN);
    private static final StrategySpec MULTI_4 = StrategySpec.multi(4, SelectorType.ROUND_ROBIN);
    private static final StrategySpec POOLED = StrategySpec.pooled(new PoolSettings(4, 4, 0, Duration.ofSeconds(1)));
    private static final long MINUTE = 60 * SECOND;

    private final ScriptedPolicy inner = new ScriptedPolicy();
    private final SuppressingPolicy suppressing = new SuppressingPolicy(3, Duration.ofMinutes(10), this.inner);

    private Decision rollbackAt(long now) {
        this.inner.proposing(StrategySpec.single(), DecisionReason.ROLLBACK);
        return this.suppressing.decide(window(now, MULTI, 50_000, 8), now);
    }

    private Decision steadyAt(long now) {
        this.inner.staying(DecisionReason.STEADY);
        return this.suppressing.decide(window(now, MULTI, 50_000, 8), now);
    }

    @Test
    void theThirdRollbackWithinAnHourSuspendsChangesForTheSuppression() {
        rollbackAt(MINUTE);
        rollbackAt(20 * MINUTE);
        assertThat(steadyAt(21 * MINUTE).reason()).as("two rollbacks suspend nothing").isEqualTo(DecisionReason.STEADY);
        assertThat(rollbackAt(40 * MINUTE).reason()).as("the rollback itself passes").isEqualTo(DecisionReason.ROLLBACK);

        Decision suppressed = steadyAt(41 * MINUTE);
        assertThat(suppressed.reason()).isEqualTo(DecisionReason.SUPPRESSED);
        assertThat(suppressed.evidence()).isEqualTo("changes suspended after 3 rollbacks within an hour");
        this.inner.proposing(MULTI_4, DecisionReason.CONNECTION_SATURATED);
        assertThat(this.suppressing.decide(window(42 * MINUTE, MULTI, 50_000, 64), 42 * MINUTE).reason())
                .as("a move for a gain is held back").isEqualTo(DecisionReason.SUPPRESSED);
        assertThat(this.suppressing.isSuppressed(50 * MINUTE - 1)).isTrue();
        assertThat(this.suppressing.isSuppressed(50 * MINUTE)).isFalse();
        assertThat(steadyAt(50 * MINUTE).reason()).isEqualTo(DecisionReason.STEADY);
    }

    @Test
    void rollbacksMoreThanAnHourApartSuspendNothing() {
        rollbackAt(MINUTE);
        rollbackAt(62 * MINUTE);
        rollbackAt(123 * MINUTE);

        assertThat(steadyAt(124 * MINUTE).reason()).isEqualTo(DecisionReason.STEADY);
        assertThat(this.suppressing.isSuppressed(124 * MINUTE)).isFalse();
    }

    @Test
    void aMoveOutOfTroubleAndATrialsVerdictPassWhileChangesAreSuspended() {
        rollbackAt(MINUTE);
        rollbackAt(2 * MINUTE);
        rollbackAt(3 * MINUTE);
        assertThat(steadyAt(4 * MINUTE).reason()).isEqualTo(DecisionReason.SUPPRESSED);

        this.inner.proposing(MULTI, DecisionReason.POOL_CONTENTION);
        Decision leave = this.suppressing.decide(window(5 * MINUTE, POOLED, 20_000, 64), 5 * MINUTE);
        assertThat(leave.reason()).as("callers waiting for a pool are never held there").isEqualTo(DecisionReason.POOL_CONTENTION);
        assertThat(leave.isSwitch()).isTrue();
        this.inner.staying(DecisionReason.TRIAL_ACCEPTED);
        assertThat(this.suppressing.decide(window(6 * MINUTE, MULTI, 50_000, 8), 6 * MINUTE).reason())
                .as("an operator's trial is judged on time").isEqualTo(DecisionReason.TRIAL_ACCEPTED);
        assertThat(rollbackAt(7 * MINUTE).reason()).as("a rollback undoes an operator's trial").isEqualTo(DecisionReason.ROLLBACK);
        assertThat(this.suppressing.isSuppressed(7 * MINUTE)).isTrue();
    }
}
