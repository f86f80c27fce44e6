package io.adaptivecache.benchmarks.http;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class HttpBenchmarkTests {

    @Test
    void slicesAndRampsAreWholeSecondsAsWrkCountsThem() {
        assertThat(settings(Duration.ofSeconds(5), Duration.ofSeconds(1), List.of()).slice()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings(Duration.ofSeconds(3), Duration.ZERO, List.of()).ramp()).isZero();
        assertThatIllegalArgumentException().isThrownBy(() -> settings(Duration.ofMillis(1500), Duration.ZERO, List.of()))
                .withMessageContaining("--slice must be whole seconds");
        assertThatIllegalArgumentException().isThrownBy(() -> settings(Duration.ofMillis(500), Duration.ZERO, List.of()))
                .withMessageContaining("--slice");
        assertThatIllegalArgumentException().isThrownBy(() -> settings(Duration.ofSeconds(5), Duration.ofMillis(250), List.of()))
                .withMessageContaining("--ramp must be whole seconds");
    }

    @Test
    void applicationsAreVariantsOrTheirTwins() {
        assertThat(settings(Duration.ofSeconds(5), Duration.ZERO, List.of("adaptive", "spring-defaults#2")).apps())
                .containsExactly("adaptive", "spring-defaults#2");
        assertThatIllegalArgumentException().isThrownBy(() -> settings(Duration.ofSeconds(5), Duration.ZERO, List.of("jedis-pool-8")))
                .withMessageContaining("Unknown variant 'jedis-pool-8'");
    }

    private static HttpBenchmark.Settings settings(Duration slice, Duration ramp, List<String> apps) {
        return new HttpBenchmark.Settings(Path.of("out"), List.of(16), apps, null, Duration.ZERO, Duration.ofSeconds(5), Duration.ofSeconds(20),
                Duration.ofSeconds(100), ramp, slice, 20, 40, 5, 0.2, "1g");
    }
}
