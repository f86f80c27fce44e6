package io.adaptivecache.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.autoconfigure.endpoint.AdaptiveCacheEndpointAutoConfiguration;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.redis.RedisCacheTemplates;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Each template's configuration resolved once: its strategies and switcher settings
 * ({@link TemplateSettings}), the Redis connection ({@link ResolvedRedisConnection}), and a failed
 * switch's cause carried as a field of its {@link SwitchEvent} to the endpoint and the application
 * event.
 */
class AdaptiveCacheResolvedSettingsTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class, AdaptiveCacheEndpointAutoConfiguration.class))
            .withPropertyValues("adaptive-cache.memcached.enabled=false", "adaptive-cache.redis.pooled-driver=lettuce",
                    "adaptive-cache.redis.adaptive.window=1h");

    @Test
    void theBuilderAndTheSwitcherShouldTakeOneResolvedSettingsObject() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=" + redis.uri(), "adaptive-cache.redis.strategy.type=multi",
                "adaptive-cache.redis.strategy.multi.selector=least-in-flight", "adaptive-cache.redis.adaptive.connection-limit=7")
                .run(context -> {
                    TemplateSettings settings = context.getBean(AdaptiveCacheRedisProperties.class).settings();
                    assertThat(context.getBean(AdaptiveCacheRedisProperties.class).settings()).as("resolved once").isSameAs(settings);
                    StrategySpec unsetMulti = StrategySpec.multi(StrategySpec.defaultMultiConnections(), SelectorType.LEAST_IN_FLIGHT);
                    assertThat(settings.initial()).isEqualTo(unsetMulti);
                    assertThat(settings.pinned()).as("a type other than adaptive pins its strategy").isEqualTo(unsetMulti);
                    StrategySwitcher switcher = context.getBean(AdaptiveCacheSwitchers.class).get("redis");
                    assertThat(switcher.template().stats().activeStrategy()).as("the builder's strategy").isEqualTo(settings.initial());
                    assertThat(switcher.state().pinned()).as("the switcher's pin").isEqualTo(settings.pinned());
                    assertThat(switcher.connectionLimit()).isEqualTo(7).isEqualTo(settings.connectionLimit());
                    assertThat(switcher.windowHistoryCapacity()).isEqualTo(settings.historyWindows());
                    AdaptiveCacheSwitchers switchers = context.getBean(AdaptiveCacheSwitchers.class);
                    assertThat(switchers.connectionLimitProperty("redis")).isEqualTo("adaptive-cache.redis.adaptive.connection-limit");
                    assertThat(switchers.connectionLimitProperty("someone-elses")).as("no section configures it").isNull();
                });
    }

    @Test
    void anApplicationsOwnTemplateShouldGetTheDefaultSettings() {
        TemplateSettings settings = TemplateSettings.unconfigured("mine");
        assertThat(settings.pinned()).isNull();
        assertThat(settings.prefix()).isEqualTo("adaptive-cache.mine");
        assertThat(settings.connectionLimit()).isEqualTo(StrategySwitcher.DEFAULT_CONNECTION_LIMIT);
        assertThat(settings.initial()).isEqualTo(StrategySpec.multi(StrategySpec.defaultMultiConnections(), SelectorType.ROUND_ROBIN));
        assertThat(settings.connectionLimitProperty()).isNull();
    }

    @Test
    void springDataRedisSettingsShouldBeResolvedOnceIntoTheConnectionTheTemplateUses() {
        RedisURI server = RedisURI.create(redis.uri());
        this.contextRunner.withPropertyValues("spring.data.redis.host=" + server.getHost(), "spring.data.redis.port=" + server.getPort(),
                "spring.data.redis.database=3").run(context -> {
                    assertThat(context).hasNotFailed();
                    ResolvedRedisConnection connection = context.getBean(ResolvedRedisConnection.class);
                    assertThat(connection.isCluster()).isFalse();
                    RedisURI uri = connection.standaloneUri();
                    assertThat(uri.getHost()).isEqualTo(server.getHost());
                    assertThat(uri.getPort()).isEqualTo(server.getPort());
                    assertThat(uri.getDatabase()).isEqualTo(3);
                    assertThat(uri.isSsl()).isFalse();
                    assertThat(connection.credentialsSource())
                            .isEqualTo("spring.data.redis.username and spring.data.redis.password");
                    uri.setDatabase(5);
                    assertThat(connection.standaloneUri().getDatabase()).as("a copy: the resolved value does not change").isEqualTo(3);
                    assertThat(context.getBean(AdaptiveCacheSwitchers.class).get("redis").template().stats().connected()).isTrue();
                });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=" + redis.uri(), "spring.data.redis.host=elsewhere")
                .run(context -> assertThat(context.getBean(ResolvedRedisConnection.class).credentialsSource())
                        .as("the URL wins over Spring Data Redis's settings")
                        .isEqualTo("adaptive-cache.redis.url (its user:password@ part)"));
        // A cluster's nodes, resolved without a context (the nodes do not exist): each takes the credentials and TLS.
        AdaptiveCacheRedisProperties clusterProperties = new Binder(new MapConfigurationPropertySource(Map.of(
                "adaptive-cache.redis.cluster.nodes", "10.0.0.1:7000,10.0.0.2:7000", "adaptive-cache.redis.password", "secret",
                "adaptive-cache.redis.ssl.enabled", "true"))).bindOrCreate("adaptive-cache.redis", AdaptiveCacheRedisProperties.class);
        ResolvedRedisConnection cluster = ResolvedRedisConnection.resolve(clusterProperties, new Binder(new MapConfigurationPropertySource()));
        assertThat(cluster.isCluster()).isTrue();
        assertThat(cluster.clusterNodes()).extracting(RedisURI::getHost).containsExactly("10.0.0.1", "10.0.0.2");
        assertThat(cluster.clusterNodes()).allSatisfy(node -> assertThat(node.isSsl()).isTrue());
        assertThat(cluster.credentialsSource()).isEqualTo("adaptive-cache.redis.username and adaptive-cache.redis.password");
        assertThat(cluster.maxRedirects()).isEqualTo(5);
    }

    @Test
    void theConnectionShouldNotBeResolvedForAnApplicationsOwnRedisTemplate() {
        // As before the connection was a value: a replaced template's adaptive-cache.redis URL is neither read nor checked.
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=not a url")
                .withBean(AdaptiveCacheAutoConfiguration.REDIS_TEMPLATE, ManagedCacheTemplate.class,
                        () -> RedisCacheTemplates.builder().uri(redis.uri()).name("redis").build())
                .run(context -> assertThat(context).hasNotFailed());
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=not a url").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("adaptive-cache.redis.url");
        });
    }

    @Test
    void aFailedPinShouldCarryItsCauseAsAFieldThatTheEndpointAndTheEventShow() {
        try (RedisServer small = RedisServer.withArguments("--maxclients", "6")) {
            small.start();
            List<SwitchEvent> published = new CopyOnWriteArrayList<>();
            this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://" + small.address(),
                    "adaptive-cache.redis.strategy.multi.connections=2", "management.endpoints.web.exposure.include=adaptivecache")
                    .withBean("switchEvents", ApplicationListener.class,
                            () -> (ApplicationListener<ApplicationEvent>) event -> {
                                if (event instanceof CacheStrategySwitchedEvent switched) {
                                    published.add(switched.getSwitchEvent());
                                }
                            })
                    .run(context -> {
                        AdaptiveCacheEndpoint endpoint = context.getBean(AdaptiveCacheEndpoint.class);
                        String before = endpoint.template("redis").strategy();

                        Throwable thrown = catchThrowable(() -> endpoint.control("redis", "pin", "multi", 20));

                        assertThat(thrown).isInstanceOf(IllegalStateException.class)
                                .hasMessageContaining("Could not open MULTI(20, ROUND_ROBIN)").hasMessageContaining("nothing changed");
                        SwitchEvent failed = published.get(published.size() - 1);
                        assertThat(failed.outcome()).isEqualTo(SwitchEvent.Outcome.FAILED);
                        assertThat(failed.failure()).as("the cause, a field of its own").isNotBlank();
                        assertThat(failed.evidence()).as("the decision's evidence alone").isEqualTo("pinned by an operator");
                        assertThat(thrown.getMessage()).as("the endpoint's reason names the cause").endsWith("Cause: " + failed.failure());
                        AdaptiveCacheEndpoint.TemplateDescriptor after = endpoint.template("redis");
                        assertThat(after.strategy()).as("the incumbent still serves").isEqualTo(before);
                        AdaptiveCacheEndpoint.SwitchDescriptor shown = after.recentSwitches().get(after.recentSwitches().size() - 1);
                        assertThat(shown.outcome()).isEqualTo("FAILED");
                        assertThat(shown.evidence()).as("the endpoint's evidence text, as before the field")
                                .isEqualTo("pinned by an operator; failed: " + failed.failure());
                    });
        }
    }
}
