package io.adaptivecache.adaptive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leave trouble fast, return slowly: the production default policy of a Jedis-pooled Redis
 * template ({@link SwitcherOptions#defaults()}: one-second windows, 60 s dwell, 30 s trial, 12
 * switches an hour) leaves a pool that makes callers wait within a few windows, whenever the last
 * change was, while a move made for a gain (back to the pool, among others) still waits for the
 * dwell. Load from the flapping tests' closed-loop model ({@link FlappingPolicyTests#model}), on
 * a fake clock of one-second windows.
 */
class LeavingTroublePolicyTests {

    private static final StrategySpec MULTI = StrategySpec.multi(2, SelectorType.ROUND_ROBIN);
    /** The blocking pool the default policy proposes: 20 connections, callers waiting up to 1 s. */
    private static final StrategySpec BLOCKING = StrategySpec.pooled(new PoolSettings(20, 20, 0, Duration.ofSeconds(1)));
    private static final long DWELL = Duration.ofSeconds(60).toNanos();
    /** The most windows of trouble a pool may keep its callers: three windows agreeing. */
    private static final int ESCAPE_WINDOWS = 3;

    /** The policy a Jedis-pooled template gets from the production defaults, under the default connection limit. */
    private final StrategyPolicy policy = SwitcherOptions.defaults().policy().create(true, StrategySpec.DEFAULT_CONNECTION_LIMIT);
    /** The MULTI the rules leave a pool for: at the connection cap, the processor count by default. */
    private final StrategySpec escapeTarget = StrategySpec.multi(Math.min(Runtime.getRuntime().availableProcessors(),
            StrategySpec.DEFAULT_CONNECTION_LIMIT), SelectorType.ROUND_ROBIN);

    private StrategySpec live = MULTI;
    private long second;

    /** One window of {@code callers} on the live strategy, a second after the last; a switch is carried out (on trial, as the switcher asks). */
    private Decision next(double callers) {
        this.second++;
        long t = this.second * SECOND;
        Decision decision = this.policy.decide(FlappingPolicyTests.model(t, this.live, callers), t);
        if (decision.isSwitch()) {
            this.policy.onSwitch(decision, true, decision.reason() != DecisionReason.ROLLBACK, t);
            this.live = decision.target();
        }
        return decision;
    }

    /** The window after a switch, which overlaps it: it counts neither way. */
    private Decision disturbedWindow() {
        this.second++;
        long t = this.second * SECOND;
        return this.policy.decide(Windows.disturbed(t, this.live, "strategy changed"), t);
    }

    /** Windows of {@code callers} until a switch, at most {@code max}; the switch, or null. */
    private Decision untilSwitch(double callers, int max) {
        for (int i = 0; i < max; i++) {
            Decision decision = next(callers);
            if (decision.isSwitch()) {
                return decision;
            }
        }
        return null;
    }

    /** Eight callers on MULTI(2), as in the measured run, until the policy moves them to the blocking pool (a gain). */
    private Decision moveEightCallersToThePool() {
        Decision move = untilSwitch(8, 120);
        assertThat(move).isNotNull();
        assertThat(move.reason()).isEqualTo(DecisionReason.BLOCKING_FITS);
        assertThat(move.target()).isEqualTo(BLOCKING);
        return move;
    }

    /** Windows of 200 callers until the pool is left; asserts it is left for contention, and returns how many windows it took. */
    private int windowsToLeaveThePoolAtTwoHundredCallers() {
        return windowsToLeaveThePool(200, DecisionReason.POOL_CONTENTION);
    }

    /** Windows of {@code callers} until the pool is left; asserts it is left for {@code reason}, and returns how many windows it took. */
    private int windowsToLeaveThePool(int callers, DecisionReason reason) {
        int windows = 0;
        Decision leave = null;
        while (leave == null && windows < 300) {
            windows++;
            Decision decision = next(callers);
            leave = decision.isSwitch() ? decision : null;
        }
        assertThat(leave).as("the pool was never left").isNotNull();
        assertThat(leave.reason()).isEqualTo(reason);
        assertThat(leave.target()).isEqualTo(this.escapeTarget);
        assertThat(leave.evidence()).contains((callers - 20) + " waiting");
        return windows;
    }

    @Test
    void aPoolTheSurgeSaturatesFiveSecondsAfterThePolicyMovedToItIsLeftWithinThreeWindows() {
        Decision move = moveEightCallersToThePool();
        disturbedWindow();
        for (int i = 0; i < 4; i++) {
            assertThat(next(8).reason()).as("the pool on trial").isEqualTo(DecisionReason.TRIAL);
        }
        assertThat(this.second * SECOND - move.atNanos()).isEqualTo(5 * SECOND);

        assertThat(windowsToLeaveThePoolAtTwoHundredCallers()).as("windows of 200 callers on the pool, 5 s after the move")
                .isLessThanOrEqualTo(ESCAPE_WINDOWS);
    }

    @Test
    void aPoolTheSurgeSaturatesAfterEightySecondsOfEightCallersIsLeftWithinThreeWindows() {
        // The measured run: 80 s of 8 callers (the move to the pool came in them), then 200.
        moveEightCallersToThePool();
        while (this.second < 80) {
            next(8);
        }

        assertThat(windowsToLeaveThePoolAtTwoHundredCallers()).as("windows of 200 callers on the pool").isLessThanOrEqualTo(ESCAPE_WINDOWS);
    }

    @Test
    void aPoolTwentyFiveCallersExceedFiveSecondsAfterThePolicyMovedToItIsLeftWithinThreeWindows() {
        moveEightCallersToThePool();
        disturbedWindow();
        for (int i = 0; i < 4; i++) {
            next(8);
        }

        // Five callers wait for one of the 20 connections, briefly: not contention, but every connection is busy.
        assertThat(windowsToLeaveThePool(25, DecisionReason.POOL_SATURATED)).as("windows of 25 callers on the pool of 20")
                .isLessThanOrEqualTo(ESCAPE_WINDOWS);
    }

    @Test
    void aPoolAnOperatorPinnedFiveSecondsAgoIsLeftWithinThreeWindowsOnceUnpinned() {
        next(8);
        // Pinned (not on trial) and unpinned by an operator: the policy is told of the switch, not asked meanwhile.
        long t = this.second * SECOND;
        this.policy.onSwitch(new Decision(t, this.live, BLOCKING, DecisionReason.OPERATOR, "pinned by an operator"), true, false, t);
        this.live = BLOCKING;
        disturbedWindow();
        for (int i = 0; i < 4; i++) {
            next(8);
        }

        assertThat(windowsToLeaveThePoolAtTwoHundredCallers()).as("windows of 200 callers on the pool, 5 s after the pin")
                .isLessThanOrEqualTo(ESCAPE_WINDOWS);
    }

    @Test
    void theMoveBackToThePoolIsAGainThatWaitsTwiceTheDwellAndIsOnTrial() {
        moveEightCallersToThePool();
        disturbedWindow();
        for (int i = 0; i < 4; i++) {
            next(8);
        }
        windowsToLeaveThePoolAtTwoHundredCallers();
        long leftAt = this.second * SECOND;
        disturbedWindow();

        // Eight callers again at once: the pool fits them, but the move back is made for a gain.
        List<Decision> waiting = new ArrayList<>();
        Decision back = null;
        while (back == null && this.second < 1000) {
            Decision decision = next(8);
            waiting.add(decision);
            back = decision.isSwitch() ? decision : null;
        }

        assertThat(back).isNotNull();
        assertThat(back.reason()).isEqualTo(DecisionReason.BLOCKING_FITS);
        assertThat(back.atNanos() - leftAt).as("the 60 s dwell, doubled by leaving the pool").isGreaterThanOrEqualTo(2 * DWELL);
        assertThat(waiting.get(0).evidence()).isEqualTo("last change 2 s ago, dwell 120 s");
        assertThat(next(8).reason()).as("the move back is on trial").isEqualTo(DecisionReason.TRIAL);
    }

    @Test
    void aMoveForAGainFiveSecondsAfterAChangeStillWaitsForTheDwell() {
        // An operator moved one caller to four connections 5 s ago: idle connections, which the rules would shrink.
        next(1);
        long changedAt = this.second * SECOND;
        StrategySpec four = StrategySpec.multi(4, SelectorType.ROUND_ROBIN);
        this.policy.onSwitch(new Decision(changedAt, this.live, four, DecisionReason.OPERATOR, "pinned by an operator"), true, false,
                changedAt);
        this.live = four;
        disturbedWindow();
        for (int i = 0; i < 4; i++) {
            assertThat(next(1).reason()).isEqualTo(DecisionReason.DWELL);
        }

        Decision shrink = untilSwitch(1, 300);

        assertThat(shrink.reason()).isIn(DecisionReason.BLOCKING_FITS, DecisionReason.CONNECTIONS_IDLE);
        assertThat(shrink.atNanos() - changedAt).as("a whole dwell after the change").isGreaterThanOrEqualTo(DWELL);
    }

    /** Runs a policy on the model for some seconds of load from MULTI(2), applying every switch as the switcher does. */
    private static List<FlappingPolicyTests.Switch> simulate(StrategyPolicy policy, IntUnaryOperator load, int seconds,
            List<Decision> decisions) {
        List<FlappingPolicyTests.Switch> switches = new ArrayList<>();
        StrategySpec live = MULTI;
        for (int second = 1; second <= seconds; second++) {
            long t = second * SECOND;
            Decision decision = policy.decide(FlappingPolicyTests.model(t, live, load.applyAsInt(second)), t);
            decisions.add(decision);
            if (decision.isSwitch()) {
                policy.onSwitch(decision, true, decision.reason() != DecisionReason.ROLLBACK, t);
                switches.add(new FlappingPolicyTests.Switch(second, live, decision.target(), decision.reason()));
                live = decision.target();
            }
        }
        return switches;
    }

    @Test
    void aSquareWaveOfEightAndTwoHundredCallersFasterThanTheDwellLeavesThePoolOnceAndNeverReturns() {
        for (int halfPeriod : new int[] {5, 20, 45, 59}) {
            // As measured: 80 s of 8 callers (the policy moves them to the pool), then 200 and 8 callers in turns.
            StrategyPolicy policy = SwitcherOptions.defaults().policy().create(true, StrategySpec.DEFAULT_CONNECTION_LIMIT);
            List<FlappingPolicyTests.Switch> switches = simulate(policy,
                    second -> second <= 80 || ((second - 81) / halfPeriod) % 2 == 1 ? 8 : 200, 80 + 3600, new ArrayList<>());

            assertThat(switches).as("half-period %d s: %s", halfPeriod, switches).hasSize(2);
            assertThat(switches.get(0).reason()).isEqualTo(DecisionReason.BLOCKING_FITS);
            FlappingPolicyTests.Switch leave = switches.get(1);
            assertThat(leave.reason()).isIn(DecisionReason.POOL_CONTENTION, DecisionReason.POOL_SATURATED);
            assertThat(leave.second()).as("half-period %d s: left within three windows of the first surge", halfPeriod)
                    .isLessThanOrEqualTo(80 + ESCAPE_WINDOWS);
            // And so at most one switch per pair of phases; no return to the pool (a gain) while the surges recur.
        }
    }

    @Test
    void theBudgetBoundsMovesOutOfTroubleToo() {
        // The defaults with a budget of three switches an hour.
        ThresholdStrategyPolicy policy = ThresholdStrategyPolicy.builder().maxConnections(2).maxSwitchesPerHour(3)
                .blockingPool(ThresholdStrategyPolicy.BlockingPool.DEFAULTS).build();
        List<Decision> decisions = new ArrayList<>();
        // 8 callers (to the pool), 200 (out of it), 8 from 100 s (back after the doubled dwell), 200 from 300 s for two hours.
        List<FlappingPolicyTests.Switch> switches = simulate(policy,
                second -> second <= 80 || (second > 100 && second <= 300) ? 8 : 200, 300 + 7200, decisions);

        assertThat(switches).extracting(FlappingPolicyTests.Switch::reason).containsExactly(DecisionReason.BLOCKING_FITS,
                DecisionReason.POOL_CONTENTION, DecisionReason.BLOCKING_FITS, DecisionReason.POOL_CONTENTION);
        long firstSwitch = switches.get(0).second();
        FlappingPolicyTests.Switch held = switches.get(3);
        // Held until the first switch is an hour old: three switches in any hour.
        assertThat(held.second()).isEqualTo(firstSwitch + 3600 + 1);
        assertThat(decisions.get(held.second() - 2).reason()).isEqualTo(DecisionReason.BUDGET_EXHAUSTED);
        assertThat(decisions.get(held.second() - 2).evidence()).isEqualTo("3 switches in the last hour; POOL_CONTENTION waits");
        for (FlappingPolicyTests.Switch from : switches) {
            assertThat(switches.stream().filter(other -> other.second() >= from.second() && other.second() < from.second() + 3600))
                    .as("switches in the hour from %s", from).hasSizeLessThanOrEqualTo(3);
        }
    }
}
