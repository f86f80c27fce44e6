package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.DecisionReason;
import io.adaptivecache.adaptive.StrategyPolicy;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The policy each template's switcher asks: an application's {@link StrategyPolicyProvider} for
 * the templates it answers for, otherwise the default {@link ThresholdStrategyPolicy} as the
 * template's own properties and the {@link StrategyPolicyCustomizer}s set it. On real servers.
 */
class AdaptiveCacheStrategyPolicyTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners.onBothServers(redis, memcached)
            .withPropertyValues("adaptive-cache.redis.pooled-driver=lettuce");

    @Test
    void aUsersPolicyForOneTemplateShouldBeTheOneItsSwitcherActsOn() {
        // Windows of 100 ms and a policy that always asks for SINGLE: the switcher's next windows carry it out.
        this.contextRunner.withUserConfiguration(AlwaysSingleOnRedis.class)
                .withPropertyValues("adaptive-cache.redis.adaptive.window=100ms", "adaptive-cache.memcached.adaptive.window=100ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AdaptiveCacheSwitchers switchers = context.getBean(AdaptiveCacheSwitchers.class);
                    ManagedCacheTemplate redisTemplate = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    assertThat(switchers.get("redis").policy()).isInstanceOf(AlwaysSingle.class);
                    // The history gets its event once the switch has returned (after the old strategy's drain), a
                    // moment after the new strategy went live: wait for both.
                    Awaitility.await("the switch the user's policy asked for").atMost(Duration.ofSeconds(10))
                            .until(() -> redisTemplate.stats().activeStrategy().equals(StrategySpec.single())
                                    && !switchers.get("redis").state().history().isEmpty());
                    assertThat(switchers.get("redis").state().history()).isNotEmpty()
                            .allSatisfy(event -> assertThat(event.evidence()).isEqualTo("the user's policy"));
                    assertThat(switchers.get("memcached").policy()).as("a template the provider does not answer for")
                            .isInstanceOf(ThresholdStrategyPolicy.class);
                    // Not its live strategy: the default policy may move an idle template to SINGLE on its own once
                    // its dwell has passed, which a slow machine reaches while the Redis switch is awaited.
                    assertThat(switchers.get("memcached").state().history()).as("no switch of memcached by the user's policy")
                            .noneSatisfy(event -> assertThat(event.evidence()).isEqualTo("the user's policy"));
                });
    }

    @Test
    void theFirstProviderInOrderThatAnswersShouldWin() {
        this.contextRunner.withUserConfiguration(TwoProviders.class).run(context -> {
            assertThat(context).hasNotFailed();
            AdaptiveCacheSwitchers switchers = context.getBean(AdaptiveCacheSwitchers.class);
            assertThat(((AlwaysSingle) switchers.get("redis").policy()).by).isEqualTo("first");
            assertThat(switchers.get("memcached").policy()).as("a provider that answers null leaves the default")
                    .isInstanceOf(ThresholdStrategyPolicy.class);
        });
    }

    @Test
    void theDefaultPolicyShouldTakeItsTemplatesOwnPropertiesAndTheCustomizers() {
        this.contextRunner.withUserConfiguration(Customizers.class)
                .withPropertyValues("adaptive-cache.redis.adaptive.dwell=90s", "adaptive-cache.redis.adaptive.trial=20s",
                        "adaptive-cache.redis.adaptive.max-connections=6", "adaptive-cache.redis.adaptive.min-calls-per-window=300",
                        "adaptive-cache.redis.adaptive.max-switches-per-hour=5", "adaptive-cache.redis.strategy.multi.selector=least-in-flight",
                        "adaptive-cache.memcached.adaptive.dwell=45s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AdaptiveCacheSwitchers switchers = context.getBean(AdaptiveCacheSwitchers.class);
                    ThresholdStrategyPolicy.Settings redisPolicy = ((ThresholdStrategyPolicy) switchers.get("redis").policy()).settings();
                    assertThat(redisPolicy.dwell()).isEqualTo(Duration.ofSeconds(90));
                    assertThat(redisPolicy.trial()).isEqualTo(Duration.ofSeconds(20));
                    assertThat(redisPolicy.maxConnections()).isEqualTo(6);
                    assertThat(redisPolicy.minCallsPerWindow()).isEqualTo(300);
                    assertThat(redisPolicy.maxSwitchesPerHour()).isEqualTo(5);
                    assertThat(redisPolicy.selector()).as("the MULTI it proposes picks connections as configured")
                            .isEqualTo(SelectorType.LEAST_IN_FLIGHT);
                    assertThat(redisPolicy.trialTolerance()).as("set by the customizer for redis only").isEqualTo(0.3);
                    assertThat(redisPolicy.growAbove()).as("set by the second customizer, after the first").isEqualTo(8.0);
                    ThresholdStrategyPolicy.Settings memcachedPolicy = ((ThresholdStrategyPolicy) switchers.get("memcached").policy())
                            .settings();
                    assertThat(memcachedPolicy.dwell()).as("memcached's own section").isEqualTo(Duration.ofSeconds(45));
                    assertThat(memcachedPolicy.trialTolerance()).isEqualTo(ThresholdStrategyPolicy.Settings.defaults().trialTolerance());
                    assertThat(memcachedPolicy.growAbove()).isEqualTo(8.0);
                    assertThat(context.getBean(Customizers.class).told).containsExactlyInAnyOrder("redis", "memcached");
                });
    }

    @Test
    void theDefaultPolicyShouldTryFewerConnectionsWhereEachHasAThreadOfItsOwnUnlessACustomizerSaysNot() {
        this.contextRunner.run(context -> {
            assertThat(context).hasNotFailed();
            AdaptiveCacheSwitchers switchers = context.getBean(AdaptiveCacheSwitchers.class);
            assertThat(((ThresholdStrategyPolicy) switchers.get("memcached").policy()).triesFewerConnections())
                    .as("a client, and its I/O thread, per memcached connection").isTrue();
            assertThat(((ThresholdStrategyPolicy) switchers.get("redis").policy()).triesFewerConnections())
                    .as("Lettuce's connections share its event loops").isFalse();
        });
        this.contextRunner.withPropertyValues("adaptive-cache.memcached.driver=xmemcached").run(context -> assertThat(
                ((ThresholdStrategyPolicy) context.getBean(AdaptiveCacheSwitchers.class).get("memcached").policy())
                        .triesFewerConnections()).as("an XMemcached client, with its reactor threads, per connection").isTrue());
        this.contextRunner.withBean(StrategyPolicyCustomizer.class, () -> (template, policy) -> policy.triesFewerConnections(false))
                .run(context -> assertThat(((ThresholdStrategyPolicy) context.getBean(AdaptiveCacheSwitchers.class).get("memcached")
                        .policy()).triesFewerConnections()).isFalse());
    }

    @Test
    void customizersShouldNotTouchAUsersPolicy() {
        this.contextRunner.withUserConfiguration(AlwaysSingleOnRedis.class, Customizers.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Customizers.class).told).as("only the default policy's template").containsExactly("memcached");
        });
    }

    @Test
    void aCustomizerAskingForMoreThanTheConnectionLimitShouldFailTheStart() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.adaptive.connection-limit=4")
                .withBean(StrategyPolicyCustomizer.class, () -> (template, policy) -> policy.maxConnections(5)).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("StrategyPolicyCustomizer")
                            .hasMessageContaining("adaptive-cache.redis.adaptive.connection-limit (4)");
                });
    }

    /** Asks for SINGLE after every window, naming who made it. */
    static final class AlwaysSingle implements StrategyPolicy {

        final String by;

        AlwaysSingle(String by) {
            this.by = by;
        }

        @Override
        public Decision decide(WindowSample window, long nowNanos) {
            return new Decision(nowNanos, window.strategy(), StrategySpec.single(), DecisionReason.CONNECTIONS_IDLE, "the user's policy");
        }

        @Override
        public void onSwitch(Decision decision, boolean applied, boolean trial, long nowNanos) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class AlwaysSingleOnRedis {

        @Bean
        StrategyPolicyProvider redisPolicy() {
            return StrategyPolicyProvider.forTemplate("redis", () -> new AlwaysSingle("redis provider"));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoProviders {

        @Bean
        @Order(2)
        StrategyPolicyProvider second() {
            return StrategyPolicyProvider.forTemplate("redis", () -> new AlwaysSingle("second"));
        }

        @Bean
        @Order(1)
        StrategyPolicyProvider first() {
            return template -> template.equals("redis") ? new AlwaysSingle("first") : null;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {

        final List<String> told = new CopyOnWriteArrayList<>();

        @Bean
        @Order(1)
        StrategyPolicyCustomizer redisTolerance() {
            return (template, policy) -> {
                this.told.add(template);
                if (template.equals("redis")) {
                    policy.trialTolerance(0.3).growAbove(6.0);
                }
            };
        }

        @Bean
        @Order(2)
        StrategyPolicyCustomizer everyonesGrowth() {
            return (template, policy) -> policy.growAbove(8.0);
        }
    }
}
