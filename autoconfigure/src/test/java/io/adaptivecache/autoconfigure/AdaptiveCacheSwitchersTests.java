package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.adaptive.SwitcherOptions;
import io.adaptivecache.adaptive.SwitcherRegistry;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's switchers as the core makes them: the options it gives a template no property
 * configures are the core's defaults, and a template that makes its own switcher is not given a
 * second one. No server: nothing here connects.
 */
class AdaptiveCacheSwitchersTests {

    private final AdaptiveCacheSwitchers switchers = new AdaptiveCacheSwitchers(List.of(), event -> {
    });

    @Test
    void theOptionsOfAnUnconfiguredTemplateShouldBeTheCoresDefaults() {
        SwitcherOptions starter = this.switchers.options(TemplateSettings.unconfigured("own"));
        SwitcherOptions core = SwitcherOptions.defaults();

        assertThat(starter.mode()).isEqualTo(core.mode());
        assertThat(starter.window()).isEqualTo(core.window());
        assertThat(starter.pinned()).isEqualTo(core.pinned()).isNull();
        assertThat(starter.historyWindows()).isEqualTo(core.historyWindows());
        for (boolean blocking : new boolean[] { false, true }) {
            ThresholdStrategyPolicy fromStarter = (ThresholdStrategyPolicy) starter.policy().create(blocking, 64);
            ThresholdStrategyPolicy fromCore = (ThresholdStrategyPolicy) core.policy().create(blocking, 64);
            assertThat(fromCore.settings()).as("blocking: " + blocking).isEqualTo(fromStarter.settings());
            assertThat(fromCore.blockingPool()).as("blocking: " + blocking).isEqualTo(fromStarter.blockingPool());
        }
    }

    @Test
    void aTemplateThatMakesItsOwnSwitcherShouldNotBeGivenASecondOne() {
        // Registered elsewhere, so only the template itself can tell that it has a switcher.
        ManagedCacheTemplate own = RedisCacheTemplates.builder().uri("redis://127.0.0.1:1").name("own")
                .strategy(StrategySpec.single()).adaptive(SwitcherOptions.defaults(), new SwitcherRegistry()).build();
        ManagedCacheTemplate plain = RedisCacheTemplates.builder().uri("redis://127.0.0.1:1").name("plain")
                .strategy(StrategySpec.single()).build();
        try {
            this.switchers.startForeign(own);
            this.switchers.startForeign(plain);

            assertThat(this.switchers.get("own")).as("it makes its own when it starts").isNull();
            assertThat(this.switchers.get("plain")).as("built without options: given one here").isNotNull();
            assertThat(this.switchers.get("plain").template()).isSameAs(plain);

            this.switchers.stopForeign();

            assertThat(this.switchers.all()).as("the switchers made here stop with the lifecycle").isEmpty();
        }
        finally {
            this.switchers.stopForeign();
            own.close();
            plain.close();
        }
    }
}
