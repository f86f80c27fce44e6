package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import io.adaptivecache.testservers.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A template bean of the application's own, built with a builder, beside the auto-configured one:
 * the starter manages it as its own (lifecycle, switching, metrics, health), by its name. Each
 * assertion reads something only the starter's handling of that bean can have produced, so each
 * fails if the bean were ignored.
 */
class UserTemplateBeanTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners.redisWithActuator()
            .withBean(SimpleMeterRegistry.class)
            .withPropertyValues("adaptive-cache.redis.url=" + redis.uri(), "management.endpoints.web.exposure.include=adaptivecache");

    @Test
    void theContextShouldStartTheUsersTemplateAndCloseItAtShutdown() {
        AtomicReference<ManagedCacheTemplate> sessions = new AtomicReference<>();
        this.contextRunner.withUserConfiguration(Sessions.class).run(context -> {
            assertThat(context).hasNotFailed();
            sessions.set(context.getBean("sessions", ManagedCacheTemplate.class));
            assertThat(sessions.get().stats().running()).as("the bean method only built it: the context started it").isTrue();
            sessions.get().set("sessions:lifecycle", new byte[] { 1 }, Duration.ZERO);
            assertThat(sessions.get().get("sessions:lifecycle")).containsExactly(1);
        });
        // The bean has no destroy method (Sessions), so only the starter's lifecycle can have closed it.
        assertThat(sessions.get().stats().running()).as("closed when the context stopped").isFalse();
    }

    @Test
    void theUsersTemplateShouldHaveASwitcherThatTheEndpointPins() {
        this.contextRunner.withUserConfiguration(Sessions.class).run(context -> {
            ManagedCacheTemplate sessions = context.getBean("sessions", ManagedCacheTemplate.class);
            AdaptiveCacheSwitchers switchers = context.getBean(AdaptiveCacheSwitchers.class);
            assertThat(switchers.get("sessions")).as("a switcher of its own").isNotNull();
            assertThat(switchers.get("sessions").template()).isSameAs(sessions);
            assertThat(switchers.get("sessions").state().pinned()).as("adaptive, like a template whose properties keep the default")
                    .isNull();
            AdaptiveCacheEndpoint endpoint = context.getBean(AdaptiveCacheEndpoint.class);
            assertThat(endpoint.templates().templates()).containsOnlyKeys("redis", "sessions");

            AdaptiveCacheEndpoint.TemplateDescriptor pinned = endpoint.control("sessions", "pin", "multi", 2);

            assertThat(pinned.strategy()).startsWith("MULTI(");
            assertThat(sessions.stats().activeStrategy().type()).as("the live strategy of the user's template").isEqualTo(StrategyType.MULTI);
            assertThat(sessions.stats().activeStrategy().connections()).isEqualTo(2);
            assertThat(switchers.get("redis").state().pinned()).as("the auto-configured template's switcher is another one")
                    .isNull();
            sessions.set("sessions:after-pin", new byte[] { 2 }, Duration.ZERO);
            assertThat(sessions.get("sessions:after-pin")).containsExactly(2);
        });
    }

    @Test
    void theUsersTemplateShouldHaveMetersTaggedWithItsName() {
        this.contextRunner.withUserConfiguration(Sessions.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            // Boot's metrics auto-configuration would bind MeterBinder beans; it is not part of this runner.
            context.getBean("adaptiveCacheMeterBinder", MeterBinder.class).bindTo(registry);
            ManagedCacheTemplate sessions = context.getBean("sessions", ManagedCacheTemplate.class);
            assertThat(registry.get("adaptive.cache.connections.open").tags("template", "sessions", "backend", "redis").gauge().value())
                    .isEqualTo(sessions.stats().openConnections()).isEqualTo(1);
            assertThat(registry.get("adaptive.cache.strategy.active").tags("template", "sessions", "strategy", "single").gauge().value())
                    .isEqualTo(1);

            sessions.set("sessions:meters", new byte[] { 3 }, Duration.ZERO);
            sessions.get("sessions:meters");
            sessions.get("sessions:meters");

            assertThat(registry.get("adaptive.cache.commands").tags("template", "sessions", "command", "get", "outcome", "success",
                    "strategy", "single").timer().count()).isEqualTo(2);
            assertThat(registry.get("adaptive.cache.commands").tags("template", "sessions", "command", "set").timer().count())
                    .isEqualTo(1);
        });
    }

    @Test
    void theUsersTemplateShouldHaveAHealthIndicatorUnderItsName() {
        this.contextRunner.withUserConfiguration(Sessions.class).run(context -> {
            HealthContributor contributor = context.getBean("adaptiveCacheHealthContributor", HealthContributor.class);
            HealthIndicator sessionsHealth = (HealthIndicator) ((CompositeHealthContributor) contributor).getContributor("sessions");
            assertThat(sessionsHealth).as("an indicator named after the template").isNotNull();
            assertThat(sessionsHealth.health().getStatus()).isEqualTo(Status.UP);
            assertThat(sessionsHealth.health().getDetails()).containsEntry("backend", "redis").containsEntry("strategy", "SINGLE");

            context.getBean("sessions", ManagedCacheTemplate.class).close();
            assertThat(sessionsHealth.health().getStatus()).as("it reads the user's template, not another").isEqualTo(Status.DOWN);
            assertThat(((HealthIndicator) ((CompositeHealthContributor) contributor).getContributor("redis")).health().getStatus())
                    .isEqualTo(Status.UP);
        });
    }

    @Test
    void aBuiltTemplateDeclaredAsCacheTemplateShouldBeManagedToo() {
        this.contextRunner.withUserConfiguration(Archive.class).run(context -> {
            assertThat(context).hasNotFailed();
            ManagedCacheTemplate archive = (ManagedCacheTemplate) context.getBean("archive", CacheTemplate.class);
            assertThat(archive.stats().running()).isTrue();
            assertThat(context.getBean(AdaptiveCacheSwitchers.class).get("archive")).isNotNull();
            HealthContributor contributor = context.getBean("adaptiveCacheHealthContributor", HealthContributor.class);
            assertThat(((CompositeHealthContributor) contributor).getContributor("archive")).isNotNull();
        });
    }

    @Test
    void twoTemplatesWithOneNameShouldFailTheStartAndSaySo() {
        // RedisCacheTemplates.builder() names its template "redis" unless told otherwise, as the auto-configured one is named.
        this.contextRunner.withBean("unnamed", ManagedCacheTemplate.class, () -> RedisCacheTemplates.builder().uri(redis.uri()).build())
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("Two cache templates are named 'redis'")
                            .hasMessageContaining("name(...)");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Sessions {

        // No destroy method: Spring would otherwise close an AutoCloseable bean itself, and the lifecycle test could not
        // tell whether the starter closed it.
        @Bean(destroyMethod = "")
        ManagedCacheTemplate sessions() {
            return RedisCacheTemplates.builder().name("sessions").uri(redis.uri()).strategy(StrategySpec.single()).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Archive {

        @Bean
        CacheTemplate archive() {
            return RedisCacheTemplates.builder().name("archive").uri(redis.uri()).strategy(StrategySpec.single()).build();
        }
    }
}
