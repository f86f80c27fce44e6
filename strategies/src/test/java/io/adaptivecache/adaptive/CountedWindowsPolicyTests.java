package io.adaptivecache.adaptive;

import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static io.adaptivecache.adaptive.Windows.SECOND;
import static io.adaptivecache.adaptive.Windows.disturbed;
import static io.adaptivecache.adaptive.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;

/** The filter of windows that count, alone, around a scripted policy. */
class CountedWindowsPolicyTests {

    private final ScriptedPolicy inner = new ScriptedPolicy().proposing(StrategySpec.multi(2, SelectorType.ROUND_ROBIN),
            DecisionReason.CONNECTION_SATURATED);
    private final CountedWindowsPolicy counted = new CountedWindowsPolicy(200, this.inner);

    @Test
    void disturbedAndThinWindowsNeverReachTheLayersWithin() {
        assertThat(this.counted.decide(disturbed(SECOND, StrategySpec.single(), "strategy changed"), SECOND).reason())
                .isEqualTo(DecisionReason.DISTURBED);
        Decision thin = this.counted.decide(window(2 * SECOND, StrategySpec.single(), 199, 64), 2 * SECOND);
        assertThat(thin.reason()).isEqualTo(DecisionReason.INSUFFICIENT_DATA);
        assertThat(thin.evidence()).isEqualTo("199 calls < 200");
        assertThat(this.inner.windowsSeen).isZero();

        assertThat(this.counted.decide(window(3 * SECOND, StrategySpec.single(), 200, 64), 3 * SECOND).isSwitch()).isTrue();
        assertThat(this.inner.windowsSeen).isEqualTo(1);
    }
}
