package io.adaptivecache.metrics;

import java.time.Duration;

import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.DecisionReason;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Per-node figures and the slow-node judgement, on synthetic calls: no server, no clock. */
class NodeSensorsTests {

    private static final long MILLI = 1_000_000;
    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    private final NodeSensors nodes = new NodeSensors();

    private void calls(String address, int count, CallOutcome outcome, long latencyNanos) {
        NodeSensor node = this.nodes.register("id-" + address, address);
        for (int i = 0; i < count; i++) {
            node.record(outcome, latencyNanos);
        }
    }

    @Test
    void nodesThatAreAlikeShouldNotDisturbAWindowHoweverSlowTheyAllAre() {
        calls("10.0.0.1:6379", 100, CallOutcome.SUCCESS, 8 * MILLI);
        calls("10.0.0.2:6379", 100, CallOutcome.SUCCESS, 9 * MILLI);
        calls("10.0.0.3:6379", 100, CallOutcome.SUCCESS, 10 * MILLI);

        assertThat(this.nodes.closeWindow()).isNull();
    }

    @Test
    void oneNodeFarSlowerThanTheOthersShouldDisturbTheWindowAndBeNamed() {
        calls("10.0.0.1:6379", 100, CallOutcome.SUCCESS, MILLI / 2);
        calls("10.0.0.2:6379", 100, CallOutcome.SUCCESS, 20 * MILLI);
        calls("10.0.0.3:6379", 100, CallOutcome.SUCCESS, MILLI / 2);

        assertThat(this.nodes.closeWindow()).startsWith("node 10.0.0.2:6379 is slow: mean 20.00 ms against a median of 0.50 ms");
        assertThat(this.nodes.closeWindow()).as("the next window has no calls at all").isNull();
    }

    @Test
    void aFewTimesSlowerButStillUnderAMillisecondIsNoise() {
        calls("10.0.0.1:6379", 100, CallOutcome.SUCCESS, 50_000);
        calls("10.0.0.2:6379", 100, CallOutcome.SUCCESS, 400_000);

        assertThat(this.nodes.closeWindow()).isNull();
    }

    @Test
    void aNodeThatFailsItsCallsShouldDisturbTheWindow() {
        calls("10.0.0.1:6379", 100, CallOutcome.SUCCESS, MILLI);
        calls("10.0.0.2:6379", 95, CallOutcome.SUCCESS, MILLI);
        calls("10.0.0.2:6379", 5, CallOutcome.CONNECTION_FAILURE, 10_000);

        assertThat(this.nodes.closeWindow()).isEqualTo("node 10.0.0.2:6379 failed 5 of 100 calls");
    }

    @Test
    void aLoneNodeOrANodeWithTooFewCallsIsNotJudged() {
        calls("10.0.0.1:6379", 100, CallOutcome.SUCCESS, MILLI / 2);
        calls("10.0.0.2:6379", 5, CallOutcome.TIMEOUT, 900 * MILLI);

        assertThat(this.nodes.closeWindow()).as("5 calls are under the 20 a node needs to be compared").isNull();
    }

    @Test
    void figuresShouldHoldTotalsAndTheLastWindowPerNode() {
        calls("10.0.0.1:6379", 10, CallOutcome.SUCCESS, 2 * MILLI);
        calls("10.0.0.1:6379", 2, CallOutcome.TIMEOUT, 8 * MILLI);
        this.nodes.closeWindow();
        calls("10.0.0.1:6379", 4, CallOutcome.SUCCESS, MILLI);

        NodeFigures figures = this.nodes.figures().get(0);
        assertThat(figures.address()).isEqualTo("10.0.0.1:6379");
        assertThat(figures.calls()).isEqualTo(16);
        assertThat(figures.errors()).isEqualTo(2);
        assertThat(figures.timeouts()).isEqualTo(2);
        assertThat(figures.meanLatencyNanos()).isEqualTo((10 * 2 + 2 * 8 + 4) * MILLI / 16.0);
        assertThat(figures.windowCalls()).as("the last closed window").isEqualTo(12);
        assertThat(figures.windowErrors()).isEqualTo(2);
        assertThat(figures.windowMaxLatencyNanos()).isEqualTo(8 * MILLI);
    }

    @Test
    void memoryShouldBeBoundedByTheNodeCapAndIdleNodesForgotten() {
        NodeSensors capped = new NodeSensors(2, NodeSensors.Settings.DEFAULTS);
        NodeSensor first = capped.register("a", "10.0.0.1:6379");
        capped.register("b", "10.0.0.2:6379");
        NodeSensor third = capped.register("c", "10.0.0.3:6379");

        assertThat(third.id()).isEqualTo(NodeSensors.OTHER_NODES);
        third.record(CallOutcome.SUCCESS, MILLI);
        assertThat(capped.figures()).extracting(NodeFigures::id).containsExactly(NodeSensors.OTHER_NODES, "a", "b");

        for (int i = 0; i < NodeSensors.FORGET_AFTER_IDLE_WINDOWS - 1; i++) {
            first.record(CallOutcome.SUCCESS, MILLI);
            capped.closeWindow();
        }
        capped.closeWindow();
        assertThat(capped.sensor("a")).as("served a call one window ago").isNotNull();
        assertThat(capped.sensor("b")).as("idle for " + NodeSensors.FORGET_AFTER_IDLE_WINDOWS + " windows").isNull();
        assertThat(capped.register("c", "10.0.0.3:6379").id()).as("a forgotten node frees its place").isEqualTo("c");
    }

    @Test
    void aSlowNodeShouldKeepThePolicyFromGrowingConnectionsForEveryone() {
        TemplateSensors sensors = new TemplateSensors();
        sensors.judgeNodes(this.nodes);
        StrategyStats single = new StrategyStats(StrategySpec.single(), 1, 0, 0, 0, 0);
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(
                ThresholdStrategyPolicy.Settings.defaults().withMaxConnections(4).withMinCallsPerWindow(10)
                        .withTimings(Duration.ofSeconds(1), Duration.ofSeconds(1)));
        sensors.sample(SECOND, single, SECOND);

        // 300 calls/s at a mean of ~33 ms are 10 calls in flight on one connection: growth, were it the load's.
        for (int window = 2; window < 12; window++) {
            for (int i = 0; i < 100; i++) {
                slowNodeCall(sensors, "10.0.0.1:6379", MILLI);
                slowNodeCall(sensors, "10.0.0.2:6379", 98 * MILLI);
                slowNodeCall(sensors, "10.0.0.3:6379", MILLI);
            }
            WindowSample sample = sensors.sample(window * SECOND, single, SECOND);
            Decision decision = policy.decide(sample, window * SECOND);

            assertThat(sample.concurrency()).isGreaterThan(ThresholdStrategyPolicy.Settings.defaults().growAbove());
            assertThat(decision.isSwitch()).isFalse();
            assertThat(decision.reason()).isEqualTo(DecisionReason.DISTURBED);
            assertThat(decision.evidence()).contains("node 10.0.0.2:6379 is slow");
        }
    }

    private void slowNodeCall(TemplateSensors sensors, String address, long latencyNanos) {
        this.nodes.register("id-" + address, address).record(CallOutcome.SUCCESS, latencyNanos);
        sensors.onCall(CacheCommand.GET, CallOutcome.SUCCESS, latencyNanos);
    }
}
