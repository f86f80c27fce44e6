package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The switchers, meters, endpoint and health as the auto-configuration wires them, on a real Redis. */
class AdaptiveCacheAdaptiveAutoConfigurationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners.redisWithActuator()
            .withPropertyValues("adaptive-cache.redis.url=" + redis.uri());

    @Test
    void aFixedStrategyShouldBePinnedAndAdaptiveShouldLetTheSwitcherChoose() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.strategy.type=single").run(context -> {
            StrategySwitcher switcher = context.getBean(AdaptiveCacheSwitchers.class).get("redis");
            assertThat(switcher.state().pinned()).isEqualTo(StrategySpec.single());
        });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.strategy.type=adaptive", "adaptive-cache.redis.adaptive.initial=pooled",
                "adaptive-cache.redis.adaptive.mode=advise").run(context -> {
                    StrategySwitcher switcher = context.getBean(AdaptiveCacheSwitchers.class).get("redis");
                    assertThat(switcher.state().pinned()).isNull();
                    assertThat(switcher.state().mode()).isEqualTo(AdaptiveMode.ADVISE);
                    assertThat(switcher.state().active().type()).isEqualTo(io.adaptivecache.strategy.StrategyType.POOLED);
                });
    }

    @Test
    void aBlockingPoolThatWouldBeSaturatedAtOnceShouldNameTheProperty() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=jedis", "adaptive-cache.redis.strategy.type=adaptive",
                "adaptive-cache.redis.adaptive.blocking-pool.max-concurrency=15",
                "adaptive-cache.redis.adaptive.blocking-pool.pool-size=10").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .hasMessageContaining("adaptive-cache.redis.adaptive.blocking-pool.max-concurrency")
                            .hasMessageContaining("60% of pool-size (10)");
                });
        // Without blocking connections (the Lettuce driver) the blocking-pool settings are not read.
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=lettuce", "adaptive-cache.redis.strategy.type=adaptive",
                "adaptive-cache.redis.adaptive.blocking-pool.max-concurrency=15",
                "adaptive-cache.redis.adaptive.blocking-pool.pool-size=10").run(context -> assertThat(context).hasNotFailed());
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=jedis", "adaptive-cache.redis.strategy.type=adaptive",
                "adaptive-cache.redis.adaptive.blocking-pool.max-concurrency=3",
                "adaptive-cache.redis.adaptive.blocking-pool.pool-size=6").run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void theBlockingPoolsLargeValueSettingsShouldBindAndBadOnesShouldNameTheProperty() {
        String prefix = "adaptive-cache.redis.adaptive.blocking-pool";
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=jedis", "adaptive-cache.redis.strategy.type=adaptive")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ThresholdStrategyPolicy.BlockingPool defaults = StrategyPolicies.blockingPool(prefix,
                            context.getBean(AdaptiveCacheRedisProperties.class).getAdaptive().blockingPool());
                    assertThat(defaults).isEqualTo(ThresholdStrategyPolicy.BlockingPool.DEFAULTS);
                });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=jedis", "adaptive-cache.redis.strategy.type=adaptive",
                prefix + ".large-value-size=64KB", prefix + ".max-round-trip=2ms").run(context -> {
                    assertThat(context).hasNotFailed();
                    ThresholdStrategyPolicy.BlockingPool bound = StrategyPolicies.blockingPool(prefix,
                            context.getBean(AdaptiveCacheRedisProperties.class).getAdaptive().blockingPool());
                    assertThat(bound.largeValueBytes()).isEqualTo(64 * 1024);
                    assertThat(bound.maxRoundTrip()).isEqualTo(Duration.ofMillis(2));
                    assertThat(bound.poolSize()).as("the other settings keep their defaults").isEqualTo(20);
                });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=jedis", "adaptive-cache.redis.strategy.type=adaptive",
                prefix + ".large-value-size=1B").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(prefix + ".large-value-size")
                            .hasMessageContaining("at least 2 bytes");
                });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=jedis", "adaptive-cache.redis.strategy.type=adaptive",
                prefix + ".max-round-trip=0s").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(prefix + ".max-round-trip")
                            .hasMessageContaining("positive duration");
                });
    }

    @Test
    void theConnectionLimitShouldBindAndBoundThePolicyAndBadValuesShouldNameTheProperty() {
        String prefix = "adaptive-cache.redis.adaptive";
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=lettuce", prefix + ".connection-limit=5").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(AdaptiveCacheSwitchers.class).get("redis").connectionLimit()).isEqualTo(5);
            assertThat(context.getBean(AdaptiveCacheSwitchers.class).connectionLimitProperty("redis"))
                    .isEqualTo(prefix + ".connection-limit");
        });
        this.contextRunner.run(context -> assertThat(context.getBean(AdaptiveCacheSwitchers.class).get("redis").connectionLimit())
                .as("the default").isEqualTo(StrategySwitcher.DEFAULT_CONNECTION_LIMIT));
        assertThat(StrategyPolicies.defaultPolicy(prefix, adaptive(1, null), false).settings().maxConnections())
                .as("the policy's default cap (one per processor) stays within the limit").isEqualTo(1);
        this.contextRunner.withPropertyValues(prefix + ".connection-limit=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(prefix + ".connection-limit")
                    .hasMessageContaining("at least 1");
        });
        this.contextRunner.withPropertyValues(prefix + ".connection-limit=4", prefix + ".max-connections=5").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(prefix + ".max-connections")
                    .hasMessageContaining("at most " + prefix + ".connection-limit (4)");
        });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.pooled-driver=jedis", prefix + ".connection-limit=10").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(prefix + ".blocking-pool.pool-size")
                    .hasMessageContaining("at most " + prefix + ".connection-limit (10)");
        });
    }

    @Test
    void theHistoryShouldKeepItsSpanOfWindowsForTheEndpointAndBadValuesShouldNameTheProperty() {
        String prefix = "adaptive-cache.redis.adaptive";
        assertThat(AdaptiveCacheSwitchers.historyWindows(AdaptiveCacheTemplateProperties.Adaptive.DEFAULTS))
                .as("5 minutes of 1 s windows").isEqualTo(300);
        assertThat(AdaptiveCacheSwitchers.historyWindows(adaptive(Map.of("history", "2m", "window", "500ms")))).isEqualTo(240);

        // Windows of 100 ms, 300 ms of them kept: the endpoint serves the newest three, oldest first, ending with the last window.
        this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=adaptivecache", prefix + ".window=100ms",
                prefix + ".history=300ms").run(context -> {
            assertThat(context).hasNotFailed();
            AdaptiveCacheEndpoint endpoint = context.getBean(AdaptiveCacheEndpoint.class);
            java.time.Instant started = java.time.Instant.now();
            org.awaitility.Awaitility.await("older windows overwritten").atMost(Duration.ofSeconds(10)).until(() -> {
                var windows = endpoint.history("redis", "history").windows();
                return windows.size() == 3 && windows.get(0).at().isAfter(started.plusMillis(400));
            });
            var windows = endpoint.history("redis", "history").windows();
            assertThat(windows).hasSize(3);
            assertThat(windows.get(0).at()).isBefore(windows.get(1).at());
            assertThat(windows.get(1).at()).isBefore(windows.get(2).at());
            assertThat(windows).allSatisfy(window -> assertThat(window.strategyType()).isEqualTo("MULTI"));
            AdaptiveCacheEndpoint.TemplateDescriptor template = endpoint.template("redis");
            assertThat(template.lastWindow()).isNotNull();
            assertThat(template.lastWindow().at()).isAfterOrEqualTo(windows.get(2).at());
            assertThat(endpoint.history("redis", "other")).isNull();
            assertThat(endpoint.history("nope", "history")).isNull();
        });
        this.contextRunner.withPropertyValues(prefix + ".history=0s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(prefix + ".history")
                    .hasMessageContaining("positive");
        });
        this.contextRunner.withPropertyValues(prefix + ".history=2d").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(prefix + ".history")
                    .hasMessageContaining("at most 86400 windows of " + prefix + ".window");
        });
    }

    private static AdaptiveCacheTemplateProperties.Adaptive adaptive(int connectionLimit, @Nullable Integer maxConnections) {
        Map<String, String> properties = new HashMap<>(Map.of("connection-limit", String.valueOf(connectionLimit)));
        if (maxConnections != null) {
            properties.put("max-connections", String.valueOf(maxConnections));
        }
        return adaptive(properties);
    }

    /** An adaptive section bound, as the application's would be, from the given properties (names without the prefix). */
    private static AdaptiveCacheTemplateProperties.Adaptive adaptive(Map<String, String> properties) {
        Map<String, String> prefixed = new HashMap<>();
        properties.forEach((name, value) -> prefixed.put("adaptive." + name, value));
        return new Binder(new MapConfigurationPropertySource(prefixed)).bindOrCreate("adaptive",
                AdaptiveCacheTemplateProperties.Adaptive.class);
    }

    @Test
    void theEndpointsWriteOperationShouldRefuseBadRequestsWithTheirReason() {
        // Lettuce for POOLED: with Jedis the blocking pool (20 by default) would not fit under a limit of 4.
        this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=adaptivecache",
                "adaptive-cache.redis.pooled-driver=lettuce", "adaptive-cache.redis.adaptive.connection-limit=4").run(context -> {
            AdaptiveCacheEndpoint endpoint = context.getBean(AdaptiveCacheEndpoint.class);
            String before = endpoint.template("redis").strategy();

            assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> endpoint.control("nope", "unpin", null, null))
                    .withMessageContaining("No template named 'nope'");
            assertThatExceptionOfType(InvalidEndpointRequestException.class)
                    .isThrownBy(() -> endpoint.control("redis", "pin", "multi", 5))
                    .withMessageContaining("above the connection limit of 4")
                    .withMessageContaining("adaptive-cache.redis.adaptive.connection-limit");
            assertThatExceptionOfType(InvalidEndpointRequestException.class)
                    .isThrownBy(() -> endpoint.control("redis", "pin", "pooled", 0))
                    .withMessageContaining("at least 1, was 0");
            assertThatExceptionOfType(InvalidEndpointRequestException.class)
                    .isThrownBy(() -> endpoint.control("redis", "pin", null, null))
                    .withMessageContaining("needs a strategy");
            assertThat(endpoint.template("redis").strategy()).isEqualTo(before);
            assertThat(endpoint.template("redis").pinned()).isNull();
        });
    }

    @Test
    void badAdaptiveSettingsShouldNameTheProperty() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.adaptive.window=0s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("adaptive-cache.redis.adaptive.window");
        });
    }

    @Test
    void metersShouldCountCallsAndSwitches() {
        this.contextRunner.withUserConfiguration(SwitchEvents.class).withBean(SimpleMeterRegistry.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            // Boot's metrics auto-configuration would bind MeterBinder beans; it is not part of this runner.
            context.getBean("adaptiveCacheMeterBinder", MeterBinder.class).bindTo(registry);
            ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
            template.set("meters:k", new byte[] {1}, Duration.ZERO);
            template.get("meters:k");
            template.get("meters:k");

            assertThat(registry.get("adaptive.cache.commands").tags("template", "redis", "command", "get", "outcome", "success",
                    "strategy", "multi").timer().count()).isEqualTo(2);
            assertThat(registry.get("adaptive.cache.connections.open").gauge().value()).isEqualTo(template.stats().openConnections());
            assertThat(registry.get("adaptive.cache.strategy.active").tag("strategy", "multi").gauge().value()).isEqualTo(1);

            context.getBean(AdaptiveCacheSwitchers.class).get("redis").pin(StrategySpec.single());

            assertThat(registry.get("adaptive.cache.strategy.switches").tags("from", "multi", "to", "single", "reason", "operator",
                    "outcome", "switched").counter().count()).isEqualTo(1);
            assertThat(registry.get("adaptive.cache.strategy.active").tag("strategy", "single").gauge().value()).isEqualTo(1);
            assertThat(context.getBean(SwitchEvents.class).received).hasSize(1);
        });
    }

    @Test
    void withoutMicrometerTheTemplatesShouldStillWork() {
        this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(MeterBinder.class);
            context.getBean("redisCacheTemplate", ManagedCacheTemplate.class).set("no-metrics", new byte[] {1}, Duration.ZERO);
        });
    }

    @Test
    void theEndpointShouldShowAndControlTheSwitcher() {
        this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=adaptivecache").run(context -> {
            AdaptiveCacheEndpoint endpoint = context.getBean(AdaptiveCacheEndpoint.class);

            assertThat(endpoint.templates().templates()).containsOnlyKeys("redis");
            assertThat(endpoint.template("redis").strategy()).startsWith("MULTI(");
            assertThat(endpoint.template("redis").transport()).isEqualTo(io.adaptivecache.redis.RedisTransport.inUse().label())
                    .isIn("nio", "epoll", "io_uring");
            assertThat(endpoint.template("nope")).isNull();

            AdaptiveCacheEndpoint.TemplateDescriptor pinned = endpoint.control("redis", "pin", "pooled", 3);
            assertThat(pinned.strategy()).startsWith("POOLED(max-total=3");
            assertThat(pinned.pinned()).isEqualTo(pinned.strategy());
            assertThat(pinned.recentSwitches()).singleElement().satisfies(event -> assertThat(event.reason()).isEqualTo("OPERATOR"));
            assertThat(endpoint.control("redis", "unpin", null, null).pinned()).isNull();
        });
    }

    @Test
    void healthShouldReportEachTemplate() {
        this.contextRunner.run(context -> {
            HealthContributor contributor = context.getBean("adaptiveCacheHealthContributor", HealthContributor.class);
            HealthIndicator redisHealth = (HealthIndicator) ((CompositeHealthContributor) contributor).getContributor("redis");

            assertThat(redisHealth.health().getStatus()).isEqualTo(Status.UP);
            assertThat(redisHealth.health().getDetails()).containsEntry("backend", "redis").containsKey("strategy");

            context.getBean("redisCacheTemplate", ManagedCacheTemplate.class).close();
            assertThat(redisHealth.health().getStatus()).isEqualTo(Status.DOWN);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class SwitchEvents implements ApplicationListener<CacheStrategySwitchedEvent> {

        final java.util.List<CacheStrategySwitchedEvent> received = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void onApplicationEvent(CacheStrategySwitchedEvent event) {
            this.received.add(event);
        }
    }
}
