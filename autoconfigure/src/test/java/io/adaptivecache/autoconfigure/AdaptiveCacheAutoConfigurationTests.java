package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.memcached.MemcachedCacheTemplates;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisClient;
import net.spy.memcached.MemcachedClient;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;

/** Every condition of the auto-configuration, with templates connecting to real test servers. */
class AdaptiveCacheAutoConfigurationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners.onBothServers(redis, memcached);

    @Test
    void defaultsShouldGiveBothTemplatesRunningWithMultiStrategies() {
        this.contextRunner.run(context -> {
            assertThat(context).hasBean("redisCacheTemplate").hasBean("memcachedCacheTemplate");
            assertThat(context.getBeansOfType(CacheTemplate.class)).hasSize(2);
            ManagedCacheTemplate redisTemplate = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
            assertThat(redisTemplate.stats().running()).isTrue();
            assertThat(redisTemplate.stats().activeStrategy()).isEqualTo(StrategySpec.multi());
            assertThat(redisTemplate.name()).isEqualTo("redis");
            ManagedCacheTemplate memcachedTemplate = context.getBean("memcachedCacheTemplate", ManagedCacheTemplate.class);
            assertThat(memcachedTemplate.stats().activeStrategy()).isEqualTo(StrategySpec.multi());
            redisTemplate.set("auto:k", new byte[] {1}, Duration.ZERO);
            assertThat(redisTemplate.get("auto:k")).containsExactly(1);
        });
    }

    @Test
    void theOnlyTemplateShouldBeInjectableWithoutAQualifier() {
        this.contextRunner.withPropertyValues("adaptive-cache.memcached.enabled=false").run(context -> {
            assertThat(context).hasSingleBean(CacheTemplate.class).doesNotHaveBean("memcachedCacheTemplate");
            assertThat(context.getBean(CacheTemplate.class).name()).isEqualTo("redis");
        });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false").run(context -> {
            assertThat(context).hasSingleBean(CacheTemplate.class);
            assertThat(context.getBean(CacheTemplate.class).name()).isEqualTo("memcached");
        });
    }

    @Test
    void eachPropertyShouldReachTheTemplate() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.strategy.type=pooled",
                "adaptive-cache.redis.strategy.pool.max-total=3", "adaptive-cache.redis.strategy.pool.max-idle=2",
                "adaptive-cache.redis.strategy.pool.min-idle=1", "adaptive-cache.redis.strategy.pool.max-wait=750ms",
                "adaptive-cache.redis.max-key-size=32B", "adaptive-cache.redis.max-value-size=1KB",
                "adaptive-cache.memcached.strategy.type=multi", "adaptive-cache.memcached.strategy.multi.connections=3",
                "adaptive-cache.memcached.strategy.multi.selector=thread-affinity", "adaptive-cache.memcached.protocol=text",
                "adaptive-cache.memcached.item-size-max=64KB").run(context -> {
                    ManagedCacheTemplate redisTemplate = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    assertThat(redisTemplate.stats().activeStrategy())
                            .isEqualTo(StrategySpec.pooled(new PoolSettings(3, 2, 1, Duration.ofMillis(750))));
                    assertThat(redisTemplate.stats().inputRules().maxKeyBytes()).isEqualTo(32);
                    assertThat(redisTemplate.stats().inputRules().maxValueBytes()).isEqualTo(1024);
                    ManagedCacheTemplate memcachedTemplate = context.getBean("memcachedCacheTemplate", ManagedCacheTemplate.class);
                    assertThat(memcachedTemplate.stats().activeStrategy()).isEqualTo(StrategySpec.multi(3, SelectorType.THREAD_AFFINITY));
                    assertThat(memcachedTemplate.stats().openConnections()).isEqualTo(3);
                    assertThat(memcachedTemplate.stats().inputRules().maxValueBytes()).isEqualTo(64 * 1024 - 512);
                });
    }

    @Test
    void redisShouldFallBackToSpringDataRedisSettingsWhenItHasNoneOfItsOwn() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class))
                .withPropertyValues("adaptive-cache.memcached.enabled=false", "spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + redis.server().port(), "spring.data.redis.client-name=from-spring-data")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(CacheTemplate.class).set("spring-data:k", new byte[] {7}, Duration.ZERO);
                    assertThat(redis.server().clientNames()).contains("from-spring-data");
                });
    }

    @Test
    void ownRedisSettingsShouldWinOverSpringDataRedis() {
        this.contextRunner.withPropertyValues("adaptive-cache.memcached.enabled=false", "spring.data.redis.port=1",
                "adaptive-cache.redis.client-name=own").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(redis.server().clientNames()).contains("own");
                });
    }

    @Test
    void byDefaultPooledCallsRunOnBlockingJedisConnectionsBesideOneSharedConnectionForTheAsyncForms() {
        this.contextRunner.withPropertyValues("adaptive-cache.memcached.enabled=false", "adaptive-cache.redis.strategy.type=pooled")
                .run(context -> {
                    ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    assertThat(template.stats().pooledConnectionsBlock()).as("Jedis, the default driver with Jedis on the class path").isTrue();
                    template.set("jedis:k", new byte[] {5}, Duration.ZERO);
                    assertThat(template.getAsync("jedis:k").join()).containsExactly(5);
                    assertThat(template.stats().openConnections()).as("the pool's connection and the async lane").isEqualTo(2);
                });
        this.contextRunner.withPropertyValues("adaptive-cache.memcached.enabled=false", "adaptive-cache.redis.pooled-driver=lettuce",
                "adaptive-cache.redis.strategy.type=pooled").run(context -> assertThat(context.getBean("redisCacheTemplate",
                        ManagedCacheTemplate.class).stats().pooledConnectionsBlock()).isFalse());
    }

    @Test
    void aUserTemplateShouldReplaceTheAutoConfiguredOne() {
        this.contextRunner.withUserConfiguration(UserTemplateConfiguration.class).run(context -> {
            ManagedCacheTemplate template = context.getBean("memcachedCacheTemplate", ManagedCacheTemplate.class);
            assertThat(template.name()).isEqualTo("users-own");
            assertThat(template.stats().running()).as("started by the lifecycle too").isTrue();
        });
    }

    @Test
    void customizersShouldBeAppliedInOrder() {
        this.contextRunner.withUserConfiguration(CustomizerConfiguration.class)
                .withPropertyValues("adaptive-cache.redis.strategy.type=pooled", "adaptive-cache.memcached.strategy.type=pooled")
                .run(context -> {
                    List<String> calls = context.getBean("calls", List.class);
                    assertThat(calls).containsSubsequence("redis-options-1", "redis-options-2");
                    assertThat(calls).contains("redis-resources", "memcached-factory", "pool-redis", "pool-memcached");
                    assertThat(calls.indexOf("memcached-factory-first")).isLessThan(calls.indexOf("memcached-factory"));
                });
    }

    @Test
    void withoutLettuceThereShouldBeNoRedisTemplate() {
        this.contextRunner.withClassLoader(new FilteredClassLoader(RedisClient.class)).run(context -> {
            assertThat(context).doesNotHaveBean("redisCacheTemplate").hasBean("memcachedCacheTemplate");
        });
    }

    @Test
    void withoutAnyMemcachedClientThereShouldBeNoMemcachedTemplate() {
        this.contextRunner.withClassLoader(new FilteredClassLoader(MemcachedClient.class, net.rubyeye.xmemcached.MemcachedClient.class))
                .run(context -> assertThat(context).doesNotHaveBean("memcachedCacheTemplate").hasBean("redisCacheTemplate"));
    }

    @Test
    void theXMemcachedDriverShouldRunTheTemplateOnXMemcachedClientsWithTheirCustomizers() {
        int before = memcached.server().connectedClients();
        this.contextRunner.withUserConfiguration(XMemcachedCustomizerConfiguration.class)
                .withPropertyValues("adaptive-cache.memcached.driver=xmemcached", "adaptive-cache.memcached.strategy.type=multi",
                        "adaptive-cache.memcached.strategy.multi.connections=3")
                .run(context -> {
                    ManagedCacheTemplate template = context.getBean("memcachedCacheTemplate", ManagedCacheTemplate.class);
                    template.set("auto:x", new byte[] {5}, Duration.ZERO);
                    assertThat(template.get("auto:x")).containsExactly(5);
                    assertThat(context.getBean(XMemcachedCustomizerConfiguration.class).customized).hasValue(3);
                    assertThat(memcached.server().connectedClients() - before).isEqualTo(3);
                });
    }

    @Test
    void withoutSpymemcachedTheXMemcachedDriverShouldStillWorkAndTheDefaultDriverNameWhatIsMissing() {
        FilteredClassLoader withoutSpymemcached = new FilteredClassLoader(MemcachedClient.class);
        this.contextRunner.withClassLoader(withoutSpymemcached).withPropertyValues("adaptive-cache.memcached.driver=xmemcached")
                .run(context -> assertThat(context).hasNotFailed().hasBean("memcachedCacheTemplate"));
        this.contextRunner.withClassLoader(withoutSpymemcached).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("adaptive-cache.memcached.driver")
                    .hasStackTraceContaining("net.spy:spymemcached");
        });
    }

    @Test
    void withoutXMemcachedTheDefaultDriverShouldWorkAndTheXMemcachedDriverShouldNameTheDependencyToAdd() {
        // The starter does not bring XMemcached: an application that has only spymemcached.
        FilteredClassLoader withoutXMemcached = new FilteredClassLoader(net.rubyeye.xmemcached.MemcachedClient.class);
        this.contextRunner.withClassLoader(withoutXMemcached)
                .run(context -> assertThat(context).hasNotFailed().hasBean("memcachedCacheTemplate"));
        this.contextRunner.withClassLoader(withoutXMemcached).withPropertyValues("adaptive-cache.memcached.driver=xmemcached")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasStackTraceContaining("adaptive-cache.memcached.driver")
                            .hasStackTraceContaining("com.googlecode.xmemcached:xmemcached")
                            .hasStackTraceContaining("add that dependency");
                });
    }

    @Test
    void withoutCommonsPool2SharedStrategiesShouldStillWork() {
        this.contextRunner.withClassLoader(new FilteredClassLoader(GenericObjectPool.class))
                .withPropertyValues("adaptive-cache.redis.strategy.type=single").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("redisCacheTemplate", ManagedCacheTemplate.class).stats().activeStrategy())
                            .isEqualTo(StrategySpec.single());
                });
    }

    @Test
    void bothBackendsShouldBeSwitchableOff() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.enabled=false", "adaptive-cache.memcached.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(CacheTemplate.class));
    }

    @Test
    void closingTheContextShouldCloseEveryConnection() {
        int redisBefore = redis.server().connectedClients();
        int memcachedBefore = memcached.server().connectedClients();
        this.contextRunner.withPropertyValues("adaptive-cache.redis.strategy.type=single").run(context -> {
            assertThat(context.getBean("redisCacheTemplate", ManagedCacheTemplate.class).stats().openConnections()).isEqualTo(1);
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> redis.server().connectedClients() == redisBefore
                && memcached.server().connectedClients() == memcachedBefore);
    }

    @Configuration(proxyBeanMethods = false)
    static class XMemcachedCustomizerConfiguration {

        final java.util.concurrent.atomic.AtomicInteger customized = new java.util.concurrent.atomic.AtomicInteger();

        @Bean
        XMemcachedClientBuilderCustomizer countingCustomizer() {
            return builder -> customized.incrementAndGet();
        }

        @Bean
        MemcachedConnectionFactoryCustomizer spymemcachedCustomizer() {
            return builder -> {
                throw new AssertionError("a spymemcached customizer must not run on the XMemcached driver");
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserTemplateConfiguration {

        @Bean
        ManagedCacheTemplate memcachedCacheTemplate() {
            return MemcachedCacheTemplates.builder().name("users-own").servers(memcached.addresses())
                    .strategy(StrategySpec.single()).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomizerConfiguration {

        private final List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());

        @Bean
        List<String> calls() {
            return this.calls;
        }

        @Bean
        @Order(2)
        RedisClientOptionsCustomizer second() {
            return options -> this.calls.add("redis-options-2");
        }

        @Bean
        @Order(1)
        RedisClientOptionsCustomizer first() {
            return options -> this.calls.add("redis-options-1");
        }

        @Bean
        RedisClientResourcesCustomizer resources() {
            return resources -> this.calls.add("redis-resources");
        }

        @Bean
        @Order(2)
        MemcachedConnectionFactoryCustomizer factory() {
            return builder -> this.calls.add("memcached-factory");
        }

        @Bean
        @Order(1)
        MemcachedConnectionFactoryCustomizer factoryFirst() {
            return builder -> this.calls.add("memcached-factory-first");
        }

        @Bean
        CachePoolCustomizer pool() {
            return (template, config) -> this.calls.add("pool-" + template);
        }
    }
}
