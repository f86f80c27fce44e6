package io.adaptivecache.strategy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class StrategySpecTests {

    @Test
    void multiShouldDefaultToOneConnectionPerProcessor() {
        assertThat(StrategySpec.multi().connections()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(StrategySpec.multi().selector()).isEqualTo(SelectorType.ROUND_ROBIN);
    }

    @Test
    void shouldRejectZeroOrNegativeConnectionCounts() {
        assertThatIllegalArgumentException().isThrownBy(() -> StrategySpec.multi(0, SelectorType.ROUND_ROBIN))
                .withMessageContaining("at least 1 connection, was 0");
        assertThatIllegalArgumentException().isThrownBy(() -> PoolSettings.ofSize(-1))
                .withMessageContaining("max-total must be at least 1");
    }

    @Test
    void shouldRejectInconsistentPoolBounds() {
        assertThatIllegalArgumentException().isThrownBy(() -> new PoolSettings(4, 8, 0, Duration.ofMillis(1)))
                .withMessageContaining("max-idle must be between 0 and max-total (4), was 8");
        assertThatIllegalArgumentException().isThrownBy(() -> new PoolSettings(4, 2, 3, Duration.ofMillis(1)))
                .withMessageContaining("min-idle must be between 0 and max-idle (2), was 3");
        assertThatIllegalArgumentException().isThrownBy(() -> new PoolSettings(4, 2, 0, Duration.ZERO))
                .withMessageContaining("max-wait must be positive");
    }

    @Test
    void shouldDescribeItselfForLogs() {
        assertThat(StrategySpec.single()).hasToString("SINGLE");
        assertThat(StrategySpec.multi(4, SelectorType.THREAD_AFFINITY)).hasToString("MULTI(4, THREAD_AFFINITY)");
        assertThat(StrategySpec.pooled(PoolSettings.DEFAULTS))
                .hasToString("POOLED(max-total=8, max-idle=8, min-idle=0, max-wait=200ms)");
        assertThat(StrategySpec.pooled(PoolSettings.ofSize(3))).isEqualTo(StrategySpec.pooled(PoolSettings.ofSize(3)));
    }
}
