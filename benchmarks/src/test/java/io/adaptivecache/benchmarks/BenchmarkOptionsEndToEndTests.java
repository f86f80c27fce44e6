package io.adaptivecache.benchmarks;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarkOptionsEndToEndTests {

    @Test
    void theEndToEndRunHasItsOwnDefaults() {
        BenchmarkOptions options = BenchmarkOptions.parse(new String[] { "--goals", "e2e" });

        assertThat(options.threads).containsExactly(16, 64, 256);
        assertThat(options.slice).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.ramp).isEqualTo(Duration.ofSeconds(1));
        assertThat(options.warmUp).isEqualTo(Duration.ofSeconds(20));
        assertThat(options.settle).isEqualTo(Duration.ofSeconds(100));
        assertThat(options.workerHeap).isEqualTo("1g");
        assertThat(options.pairs).isEqualTo(20);
        assertThat(options.maxPairs).isEqualTo(40);
    }

    @Test
    void optionsGivenWinOverThem() {
        BenchmarkOptions options = BenchmarkOptions.parse(new String[] { "--goals", "e2e", "--threads", "16", "--slice", "3s",
            "--ramp", "0s", "--warm-up", "6s", "--settle", "10s", "--worker-heap", "512m" });

        assertThat(options.threads).containsExactly(16);
        assertThat(options.slice).isEqualTo(Duration.ofSeconds(3));
        assertThat(options.ramp).isZero();
        assertThat(options.warmUp).isEqualTo(Duration.ofSeconds(6));
        assertThat(options.settle).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.workerHeap).isEqualTo("512m");
    }

    @Test
    void aQuickEndToEndRunKeepsWholeSecondSlicesForWrk() {
        BenchmarkOptions options = BenchmarkOptions.parse(new String[] { "--quick", "--goals", "e2e" });

        assertThat(options.threads).containsExactly(16);
        assertThat(options.slice).isEqualTo(Duration.ofSeconds(2));
        assertThat(options.ramp).isZero();
        assertThat(options.pairs).isEqualTo(4);
    }

    @Test
    void theEndToEndRunGoesOverLoopbackUnlessAskedForTheProxy() {
        assertThat(BenchmarkOptions.parse(new String[] { "--goals", "e2e" }).endToEndDelay()).isZero();
        assertThat(BenchmarkOptions.parse(new String[] { "--goals", "e2e", "--networks", "delayed" }).endToEndDelay())
                .isEqualTo(Duration.ofMillis(1));
        assertThat(BenchmarkOptions.parse(new String[] { "--goals", "e2e", "--networks", "delayed", "--delay", "3ms" })
                .endToEndDelay()).isEqualTo(Duration.ofMillis(3));
    }

    @Test
    void theEndToEndRunRefusesTwoNetworksAtOnce() {
        assertThatThrownBy(() -> BenchmarkOptions.parse(new String[] { "--goals", "e2e", "--networks", "loopback,delayed" }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one network at a time");
    }

    @Test
    void otherRunsKeepTheirs() {
        BenchmarkOptions options = BenchmarkOptions.parse(new String[] { "--goals", "redis" });

        assertThat(options.threads).isEqualTo(List.of(1, 8, 50, 200));
        assertThat(options.slice).isEqualTo(Duration.ofSeconds(1));
        assertThat(options.ramp).isEqualTo(Duration.ofMillis(250));
    }
}
