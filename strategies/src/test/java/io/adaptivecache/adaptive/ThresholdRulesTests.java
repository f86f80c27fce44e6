package io.adaptivecache.adaptive;

import java.time.Duration;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static io.adaptivecache.adaptive.Windows.pooled;
import static io.adaptivecache.adaptive.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;

/** The rules alone: one window in, one proposal out, whatever came before. */
class ThresholdRulesTests {

    private static final StrategySpec SINGLE = StrategySpec.single();
    private static final StrategySpec BLOCKING = StrategySpec.pooled(new PoolSettings(20, 20, 0, Duration.ofSeconds(1)));

    private final ThresholdRules rules = new ThresholdRules(ThresholdStrategyPolicy.Settings.defaults().withMaxConnections(8),
            ThresholdStrategyPolicy.BlockingPool.DEFAULTS, false);
    /** As the default policy has them for a template whose shared connections each run an I/O thread of their own. */
    private final ThresholdRules threadPerConnection = new ThresholdRules(
            ThresholdStrategyPolicy.Settings.defaults().withMaxConnections(8), null, true);

    @Test
    void theSameWindowGivesTheSameProposalWhateverCameBefore() {
        WindowSample busy = window(SECOND, SINGLE, 50_000, 64);
        Proposal first = this.rules.propose(busy);
        this.rules.propose(window(2 * SECOND, SINGLE, 20_000, 2));
        this.rules.propose(pooled(3 * SECOND, BLOCKING, 20_000, 20, 300_000, 5));

        assertThat(this.rules.propose(busy)).isEqualTo(first);
        assertThat(first.reason()).isEqualTo(DecisionReason.CONNECTION_SATURATED);
        assertThat(first.target()).as("straight to what 64 callers need, within the cap").isEqualTo(StrategySpec.multi(8,
                SelectorType.ROUND_ROBIN));
    }

    @Test
    void fewCallersOnAShortRoundTripGoToTheBlockingPoolAndAContendedPoolToSharedConnections() {
        assertThat(this.rules.propose(window(SECOND, SINGLE, 20_000, 2)).target()).isEqualTo(BLOCKING);
        Proposal leave = this.rules.propose(pooled(SECOND, BLOCKING, 20_000, 20, 300_000, 25));
        assertThat(leave.reason()).isEqualTo(DecisionReason.POOL_CONTENTION);
        assertThat(leave.target()).isEqualTo(StrategySpec.multi(8, SelectorType.ROUND_ROBIN));
    }

    @Test
    void busyConnectionsAtTheCapProposeHalfAsManyWhereEachHasAThreadOfItsOwnAndOnlyThere() {
        StrategySpec atCap = StrategySpec.multi(8, SelectorType.ROUND_ROBIN);
        // 200 calls in flight over 8 connections: 25 each, more than the 2.25 the rules size connections for, and no room
        // to grow.
        WindowSample busyAtCap = window(SECOND, atCap, 100_000, 200);
        Proposal fewer = this.threadPerConnection.propose(busyAtCap);
        assertThat(fewer.reason()).isEqualTo(DecisionReason.CONSOLIDATION);
        assertThat(fewer.target()).isEqualTo(StrategySpec.multi(4, SelectorType.ROUND_ROBIN));
        assertThat(this.rules.propose(busyAtCap).reason()).as("connections that share a few I/O threads stay")
                .isEqualTo(DecisionReason.STEADY);

        ThresholdRules twoCores = new ThresholdRules(ThresholdStrategyPolicy.Settings.defaults().withMaxConnections(2), null, true);
        assertThat(twoCores.propose(window(SECOND, StrategySpec.multi(2, SelectorType.ROUND_ROBIN), 100_000, 200)).target())
                .as("two connections at the cap try one").isEqualTo(SINGLE);

        // Below the cap the same load grows instead; at the cap with 2 calls each it stays.
        assertThat(this.threadPerConnection.propose(window(SECOND, StrategySpec.multi(4, SelectorType.ROUND_ROBIN), 100_000, 200))
                .reason()).isEqualTo(DecisionReason.CONNECTION_SATURATED);
        assertThat(this.threadPerConnection.propose(window(SECOND, atCap, 60_000, 16)).reason()).isEqualTo(DecisionReason.STEADY);
        assertThat(this.threadPerConnection.propose(window(SECOND, atCap, 60_000, 20)).reason()).as("2.5 calls each")
                .isEqualTo(DecisionReason.CONSOLIDATION);
        assertThat(twoCores.propose(window(SECOND, SINGLE, 100_000, 200)).reason()).as("one connection has none to give up")
                .isEqualTo(DecisionReason.CONNECTION_SATURATED);
    }

    @Test
    void moderateLoadStays() {
        // 3 calls in flight per connection, 12 in all: neither grow nor shrink, too many for the blocking pool.
        Proposal steady = this.rules.propose(window(SECOND, StrategySpec.multi(4, SelectorType.ROUND_ROBIN), 40_000, 12));
        assertThat(steady.isSwitch()).isFalse();
        assertThat(steady.reason()).isEqualTo(DecisionReason.STEADY);
        assertThat(steady.at(7).atNanos()).isEqualTo(7);
    }
}
