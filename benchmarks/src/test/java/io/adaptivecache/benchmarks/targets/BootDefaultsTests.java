package io.adaptivecache.benchmarks.targets;

import java.time.Duration;

import io.adaptivecache.autoconfigure.AdaptiveCacheMemcachedProperties;
import io.adaptivecache.autoconfigure.AdaptiveCacheRedisProperties;
import io.adaptivecache.benchmarks.load.Backend;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BootDefaultsTests {

    @Test
    void theTimingsAreTheStartersOwnDefaultsOnEitherBackend() {
        BootDefaults defaults = BootDefaults.read();
        for (var adaptive : java.util.List.of(new AdaptiveCacheRedisProperties().getAdaptive(),
                new AdaptiveCacheMemcachedProperties().getAdaptive())) {
            assertThat(defaults).isEqualTo(new BootDefaults(adaptive.window(), adaptive.dwell(), adaptive.trial()));
        }
    }

    @Test
    void aWarmUpWaitsForTheFirstDwellThenTheDwellOrTrialAfterASwitchAndFiveWindows() {
        assertThat(new BootDefaults(Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofSeconds(30)).settleLimit())
                .isEqualTo(Duration.ofSeconds(125));
        // A trial longer than the dwell keeps the switch in doubt past the dwell.
        assertThat(new BootDefaults(Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofSeconds(30)).settleLimit())
                .isEqualTo(Duration.ofSeconds(45));
        assertThat(new BootDefaults(Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofSeconds(30)).settleBound())
                .isEqualTo(Duration.ofSeconds(65));
        assertThat(new BootDefaults(Duration.ofMillis(500), Duration.ofSeconds(60), Duration.ofSeconds(30)).describe())
                .isEqualTo("window 500 ms, dwell 60 s, trial 30 s");
    }

    @Test
    void theServiceSetsTheServersAddressAndNothingElseButTheRedisTemplateOffBesideMemcached() {
        assertThat(BootDefaultClient.arguments(Backend.REDIS, "127.0.0.1", 6380))
                .containsExactly("--adaptive-cache.redis.url=redis://127.0.0.1:6380");
        assertThat(BootDefaultClient.arguments(Backend.MEMCACHED, "127.0.0.1", 11212))
                .containsExactly("--adaptive-cache.memcached.servers=127.0.0.1:11212", "--adaptive-cache.redis.enabled=false");
        assertThatIllegalArgumentException().isThrownBy(() -> BootDefaultClient.arguments(Backend.REDIS_CLUSTER, "127.0.0.1", 7000));
        assertThat(Targets.bootBuilt("boot-default")).isTrue();
        assertThat(Targets.bootBuilt("boot-default#2")).isTrue();
        assertThat(Targets.bootBuilt("boot-defaults")).isFalse();
        assertThat(Targets.bootBuilt("ours-adaptive")).isFalse();
    }
}
