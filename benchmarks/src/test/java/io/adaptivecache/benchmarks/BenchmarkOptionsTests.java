package io.adaptivecache.benchmarks;

import java.time.Duration;

import io.adaptivecache.benchmarks.pairs.PhasePlan;
import io.adaptivecache.benchmarks.targets.BootDefaults;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BenchmarkOptionsTests {

    @Test
    void theBootBuiltDefaultSettlesOnTheProductionTimingsUnlessQuickOrTold() {
        assertThat(BenchmarkOptions.parse(new String[] {"--goals", "redis"}).bootSettle).isEqualTo(BootDefaults.read().settleLimit());
        // Quick mode proves that it starts, serves and closes: it waits no longer than the others.
        assertThat(BenchmarkOptions.parse(new String[] {"--quick", "--goals", "redis", "--settle", "2s"}).bootSettle)
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(BenchmarkOptions.parse(new String[] {"--quick", "--goals", "redis", "--boot-settle", "90s"}).bootSettle)
                .isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void theSurgeIsAPhaseSequenceWithLengthsOfItsOwn() {
        BenchmarkOptions options = BenchmarkOptions.parse(new String[] {"--phases", "surge", "--surge-settle", "80s",
            "--surge-hold", "70s"});
        assertThat(options.phases).containsExactly("surge");
        assertThat(options.surgeSettle).isEqualTo(Duration.ofSeconds(80));
        assertThat(options.surgeHold).isEqualTo(Duration.ofSeconds(70));
        BenchmarkOptions defaults = BenchmarkOptions.parse(new String[] {"--phases", "callers,surge"});
        assertThat(defaults.surgeSettle).isEqualTo(PhasePlan.SURGE_SETTLE);
        assertThat(defaults.surgeHold).isEqualTo(PhasePlan.SURGE_HOLD);
        BenchmarkOptions quick = BenchmarkOptions.parse(new String[] {"--quick", "--phases", "surge"});
        assertThat(quick.surgeHold).as("longer than the 3 s the goal leaves out").isGreaterThan(Duration.ofSeconds(3));
    }
}
