package io.adaptivecache.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpointWebExtension;
import io.adaptivecache.autoconfigure.cache.AdaptiveCacheSpringCacheAutoConfiguration;
import io.adaptivecache.autoconfigure.endpoint.AdaptiveCacheEndpointAutoConfiguration;
import io.adaptivecache.autoconfigure.health.AdaptiveCacheHealthContributorAutoConfiguration;
import io.adaptivecache.autoconfigure.metrics.AdaptiveCacheMetricsAutoConfiguration;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.resilience.CallGuard;
import io.adaptivecache.spring.cache.AdaptiveCacheManager;
import io.adaptivecache.spring.cache.CacheValueSerializer;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every bean an application may replace: with a bean of its own of that type (or, for a type an
 * application has many of, of that name), the auto-configuration backs off. The application's
 * instance is the one in the context, the auto-configured one is absent, and the context still
 * starts. Each case fails if the {@code @ConditionalOnMissingBean} on that bean is removed: the
 * context then holds two beans of the type (or fails on the duplicate name).
 */
class AdaptiveCacheBackOffTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners.onBothServers(redis, memcached,
                    AdaptiveCacheSpringCacheAutoConfiguration.class, AdaptiveCacheMetricsAutoConfiguration.class,
                    AdaptiveCacheEndpointAutoConfiguration.class, AdaptiveCacheHealthContributorAutoConfiguration.class)
            .withBean(SimpleMeterRegistry.class).withPropertyValues("management.endpoints.web.exposure.include=adaptivecache");

    @Test
    void withoutUserBeansEveryReplaceableBeanShouldBeAutoConfigured() {
        // The baseline the cases below depart from: each bean they replace is here by default.
        this.contextRunner.withUserConfiguration(Caching.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasBean("redisCacheTemplate").hasBean("memcachedCacheTemplate")
                    .hasSingleBean(AdaptiveCacheSwitchers.class).hasSingleBean(CacheTemplatesLifecycle.class)
                    .hasSingleBean(Resilience4jCallGuards.class).hasSingleBean(CacheValueSerializer.class)
                    .hasSingleBean(AdaptiveCacheManager.class).hasSingleBean(AdaptiveCacheEndpoint.class)
                    .hasSingleBean(AdaptiveCacheEndpointWebExtension.class).hasBean("adaptiveCacheHealthContributor")
                    .hasBean("adaptiveCacheMeterBinder").hasBean("adaptiveCacheResilienceMeterBinder");
        });
    }

    @Test
    void aUserRedisTemplateShouldReplaceTheAutoConfiguredOne() {
        ManagedCacheTemplate users = RedisCacheTemplates.builder().name("users-redis").uri(redis.uri())
                .strategy(StrategySpec.single()).build();
        assertTemplateReplaced("redisCacheTemplate", users, "users-redis", "memcached");
    }

    @Test
    void aUserMemcachedTemplateShouldReplaceTheAutoConfiguredOne() {
        ManagedCacheTemplate users = MemcachedCacheTemplates.builder().name("users-memcached").servers(memcached.addresses())
                .strategy(StrategySpec.single()).build();
        assertTemplateReplaced("memcachedCacheTemplate", users, "redis", "users-memcached");
    }

    /** The application's template under the auto-configured one's bean name: it is the one there, and started. */
    private void assertTemplateReplaced(String beanName, ManagedCacheTemplate users, String... expectedNames) {
        this.contextRunner.withBean(beanName, ManagedCacheTemplate.class, () -> users).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(beanName)).isSameAs(users);
            assertThat(templateNames(context.getBeansOfType(ManagedCacheTemplate.class))).containsExactlyInAnyOrder(expectedNames);
            assertThat(users.stats().running()).as("started by the lifecycle like its own").isTrue();
        });
    }

    @Test
    void userSwitchersShouldReplaceTheAutoConfiguredOnes() {
        AdaptiveCacheSwitchers users = new AdaptiveCacheSwitchers(List.of(), event -> { });
        assertBacksOff(this.contextRunner.withBean("usersSwitchers", AdaptiveCacheSwitchers.class, () -> users),
                AdaptiveCacheSwitchers.class, "usersSwitchers", users);
    }

    @Test
    void aUserLifecycleShouldReplaceTheAutoConfiguredOne() {
        assertBacksOff(this.contextRunner.withUserConfiguration(UsersLifecycle.class), CacheTemplatesLifecycle.class,
                "usersLifecycle", null);
    }

    @Test
    void userGuardsShouldReplaceTheResilience4jOnesForEveryTemplate() {
        List<String> guarded = new CopyOnWriteArrayList<>();
        CacheCallGuards users = (template, prefix, settings) -> {
            guarded.add(template);
            return CallGuard.NONE;
        };
        this.contextRunner.withBean("usersGuards", CacheCallGuards.class, () -> users).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeanNamesForType(CacheCallGuards.class)).containsExactly("usersGuards");
            assertThat(context).doesNotHaveBean(Resilience4jCallGuards.class);
            assertThat(guarded).as("each template took its guard from the application's bean")
                    .containsExactlyInAnyOrder("redis", "memcached");
            assertThat(context).as("the Resilience4j meter binder does without its guards").hasBean("adaptiveCacheResilienceMeterBinder");
        });
    }

    @Test
    void aUserSerializerShouldReplaceTheAutoConfiguredOne() {
        CacheValueSerializer users = new CacheValueSerializer() {
            @Override
            public byte[] serialize(Object value) {
                return new byte[0];
            }

            @Override
            public Object deserialize(byte[] bytes) {
                return null;
            }
        };
        for (String serializer : List.of("json", "jdk")) {
            assertBacksOff(this.contextRunner.withUserConfiguration(Caching.class)
                    .withPropertyValues("adaptive-cache.cache.serializer=" + serializer)
                    .withBean("usersSerializer", CacheValueSerializer.class, () -> users), CacheValueSerializer.class,
                    "usersSerializer", users);
        }
    }

    @Test
    void aUserCacheManagerShouldReplaceTheAdaptiveOne() {
        CacheManager users = new ConcurrentMapCacheManager();
        this.contextRunner.withUserConfiguration(Caching.class).withBean("usersCacheManager", CacheManager.class, () -> users)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(CacheManager.class)).isSameAs(users);
                    assertThat(context).doesNotHaveBean(AdaptiveCacheManager.class);
                });
    }

    @Test
    void aUserEndpointShouldReplaceTheAutoConfiguredOne() {
        assertBacksOff(this.contextRunner.withUserConfiguration(UsersEndpoint.class), AdaptiveCacheEndpoint.class, "usersEndpoint",
                null);
    }

    @Test
    void aUserEndpointWebExtensionShouldReplaceTheAutoConfiguredOne() {
        assertBacksOff(this.contextRunner.withUserConfiguration(UsersEndpointWebExtension.class),
                AdaptiveCacheEndpointWebExtension.class, "usersEndpointWebExtension", null);
    }

    @Test
    void aUserHealthContributorOfTheSameNameShouldReplaceTheAutoConfiguredOne() {
        HealthIndicator users = () -> Health.up().withDetail("by", "the application").build();
        this.contextRunner.withBean("adaptiveCacheHealthContributor", HealthContributor.class, () -> users).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean("adaptiveCacheHealthContributor")).isSameAs(users);
        });
    }

    @Test
    void userMeterBindersOfTheSameNamesShouldReplaceTheAutoConfiguredOnes() {
        MeterBinder usersMeters = registry -> { };
        MeterBinder usersResilienceMeters = registry -> { };
        MeterBinder usersNearCacheMeters = registry -> { };
        this.contextRunner.withBean("adaptiveCacheMeterBinder", MeterBinder.class, () -> usersMeters)
                .withBean("adaptiveCacheResilienceMeterBinder", MeterBinder.class, () -> usersResilienceMeters)
                .withBean("adaptiveNearCacheMeterBinder", MeterBinder.class, () -> usersNearCacheMeters).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("adaptiveCacheMeterBinder")).isSameAs(usersMeters);
                    assertThat(context.getBean("adaptiveCacheResilienceMeterBinder")).isSameAs(usersResilienceMeters);
                    assertThat(context.getBean("adaptiveNearCacheMeterBinder")).isSameAs(usersNearCacheMeters);
                    assertThat(context.getBeansOfType(MeterBinder.class)).as("no auto-configured binder beside them").hasSize(3);
                });
    }

    /**
     * The application's bean is the only one of its type, under the application's name (so the
     * auto-configured one, under its own name, is absent), and is the instance given.
     */
    private static <T> void assertBacksOff(ApplicationContextRunner runner, Class<T> type, String usersName, T usersInstance) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeanNamesForType(type)).as("beans of " + type.getSimpleName()).containsExactly(usersName);
            if (usersInstance != null) {
                assertThat(context.getBean(type)).isSameAs(usersInstance);
            }
        });
    }

    private static List<String> templateNames(Map<String, ManagedCacheTemplate> templates) {
        return templates.values().stream().map(ManagedCacheTemplate::name).toList();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Caching {
    }

    @Configuration(proxyBeanMethods = false)
    static class UsersLifecycle {

        @Bean
        CacheTemplatesLifecycle usersLifecycle(ObjectProvider<CacheTemplate> templates, AdaptiveCacheSwitchers switchers) {
            return new CacheTemplatesLifecycle(templates, switchers);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UsersEndpoint {

        @Bean
        AdaptiveCacheEndpoint usersEndpoint(AdaptiveCacheSwitchers switchers) {
            return new AdaptiveCacheEndpoint(switchers);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UsersEndpointWebExtension {

        @Bean
        AdaptiveCacheEndpointWebExtension usersEndpointWebExtension(AdaptiveCacheEndpoint endpoint) {
            return new AdaptiveCacheEndpointWebExtension(endpoint);
        }
    }
}
