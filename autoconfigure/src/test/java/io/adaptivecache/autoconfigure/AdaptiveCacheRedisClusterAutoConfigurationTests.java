package io.adaptivecache.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.adaptivecache.management.TemplateNodes;
import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.testservers.RedisClusterExtension;
import io.lettuce.core.ReadFrom;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code adaptive-cache.redis.cluster.*} (and Spring Data's cluster settings) on a real three-master cluster. */
class AdaptiveCacheRedisClusterAutoConfigurationTests {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    private final ApplicationContextRunner contextRunner = ContextRunners.redisWithActuator()
            .withPropertyValues("management.endpoints.web.exposure.include=adaptivecache");

    private String nodes() {
        return redis.cluster().seedAddresses();
    }

    @Test
    void aClusterShapedDataRedisConnectionDetailsBeanShouldGiveAClusterTemplateOnItsNodes() {
        // Boot's connection details with a cluster part, and no property naming a server.
        org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails details =
                new org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails() {
                    @Override
                    public Cluster getCluster() {
                        return () -> redis.cluster().masters().stream().map(master -> new Node("127.0.0.1", master.port())).toList();
                    }
                };
        this.contextRunner.withBean(org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails.class, () -> details)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ResolvedRedisConnection.class).isCluster()).isTrue();
                    ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    for (RedisServer master : redis.cluster().masters()) {
                        String key = redis.cluster().keyOn(master, "details:");
                        template.set(key, new byte[] {3}, Duration.ZERO);
                        // Read on the master that owns the key's slot, by the test server's own client: the template wrote there.
                        assertThat(master.command("EXISTS", key)).isEqualTo("1");
                    }
                });
    }

    @Test
    void clusterNodesShouldGiveAClusterTemplateWithFiguresPerNodeInTheEndpointAndMeters() {
        this.contextRunner.withBean(SimpleMeterRegistry.class)
                .withPropertyValues("adaptive-cache.redis.cluster.nodes=" + nodes(), "adaptive-cache.redis.strategy.type=pooled",
                        "adaptive-cache.redis.strategy.pool.max-total=3",
                        "adaptive-cache.redis.strategy.pool.max-idle=3")
                .run(context -> {
                    ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean("adaptiveCacheMeterBinder", MeterBinder.class).bindTo(registry);
                    for (RedisServer master : redis.cluster().masters()) {
                        String key = redis.cluster().keyOn(master, "auto:");
                        template.set(key, new byte[] {1}, Duration.ZERO);
                        assertThat(template.get(key)).containsExactly(1);
                    }

                    AdaptiveCacheEndpoint.TemplateDescriptor descriptor = context.getBean(AdaptiveCacheEndpoint.class).template("redis");
                    assertThat(descriptor.strategy()).startsWith("POOLED(");
                    assertThat(descriptor.nodes()).hasSize(3).allSatisfy(node -> {
                        assertThat(node.calls()).isEqualTo(2);
                        assertThat(node.errors()).isZero();
                        assertThat(node.meanMillis()).isPositive();
                    });
                    assertThat(descriptor.nodes()).extracting(AdaptiveCacheEndpoint.NodeDescriptor::address)
                            .containsExactlyInAnyOrderElementsOf(redis.cluster().masters().stream().map(RedisServer::address).toList());
                    String firstMaster = redis.cluster().masters().get(0).address();
                    assertThat(registry.get("adaptive.cache.node.commands").tags("template", "redis", "node", firstMaster)
                            .functionTimer().count()).isEqualTo(2);
                    assertThat(registry.get("adaptive.cache.node.errors").tags("node", firstMaster).functionCounter().count()).isZero();
                });
    }

    @Test
    void nodeBreakerPropertiesShouldReachEveryNodesBreakerAndABadValueShouldFailNamingTheProperty() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.cluster.nodes=" + nodes(),
                "adaptive-cache.redis.cluster.node-breaker.failure-threshold=3",
                "adaptive-cache.redis.cluster.node-breaker.open-duration=2s").run(context -> {
                    ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    assertThat(template.nodes().orElseThrow().sensors().breakerSettings())
                            .isEqualTo(new io.adaptivecache.metrics.NodeBreaker.Settings(3, Duration.ofSeconds(2)));
                });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.cluster.nodes=" + nodes()).run(context -> {
            ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
            assertThat(template.nodes().orElseThrow().sensors().breakerSettings())
                    .isEqualTo(io.adaptivecache.metrics.NodeBreaker.Settings.DEFAULTS);
        });
        this.contextRunner.withPropertyValues("adaptive-cache.redis.cluster.nodes=" + nodes(),
                "adaptive-cache.redis.cluster.node-breaker.failure-threshold=-1").run(context -> assertThat(context)
                        .getFailure().rootCause().hasMessageContaining("adaptive-cache.redis.cluster.node-breaker.failure-threshold"));
        this.contextRunner.withPropertyValues("adaptive-cache.redis.cluster.nodes=" + nodes(),
                "adaptive-cache.redis.cluster.node-breaker.open-duration=0s").run(context -> assertThat(context)
                        .getFailure().rootCause().hasMessageContaining("adaptive-cache.redis.cluster.node-breaker.open-duration"));
    }

    @Test
    void aStandaloneTemplateShouldShowNoNodes() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://" + redis.cluster().masters().get(0).address())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(AdaptiveCacheEndpoint.class).template("redis").nodes()).isNull();
                });
    }

    @Test
    void springDataRedisClusterSettingsShouldBeUsedWhenAdaptiveCacheHasNone() {
        this.contextRunner.withPropertyValues("spring.data.redis.cluster.nodes=" + nodes()).run(context -> {
            ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
            assertThat(template.nodes().map(TemplateNodes::sensors)).isPresent();
            template.set("spring-data:k", new byte[] {2}, Duration.ZERO);
            assertThat(template.get("spring-data:k")).containsExactly(2);
        });
    }

    @Test
    void badClusterSettingsShouldNameTheProperty() {
        assertFailure("adaptive-cache.redis.cluster.nodes=127.0.0.1", "adaptive-cache.redis.cluster.nodes", "host:port");
        assertFailure("adaptive-cache.redis.cluster.nodes=127.0.0.1:99999", "adaptive-cache.redis.cluster.nodes", "host:port");
        assertFailure("adaptive-cache.redis.cluster.read-from=sideways", "adaptive-cache.redis.cluster.read-from", "replica-preferred");
        assertFailure("adaptive-cache.redis.cluster.max-redirects=-1", "adaptive-cache.redis.cluster.max-redirects", "0 or more");
        assertFailure("adaptive-cache.redis.pooled-driver=jedis", "adaptive-cache.redis.pooled-driver", "Redis Cluster");
        assertFailure("adaptive-cache.redis.cluster.refresh.period=0s", "adaptive-cache.redis.cluster.refresh.period", "positive");
    }

    private void assertFailure(String property, String name, String hint) {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.cluster.nodes=" + nodes(), property).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(name).hasMessageContaining(hint);
        });
    }

    @Test
    void readFromNamesShouldMapToLettuceSettings() {
        assertThat(RedisClusterSettings.readFrom("replica-preferred")).isSameAs(ReadFrom.REPLICA_PREFERRED);
        assertThat(RedisClusterSettings.readFrom("masterPreferred")).isSameAs(ReadFrom.UPSTREAM_PREFERRED);
        assertThat(RedisClusterSettings.readFrom("LOWEST_LATENCY")).isSameAs(ReadFrom.LOWEST_LATENCY);
        assertThatThrownBy(() -> RedisClusterSettings.readFrom("nowhere")).isInstanceOf(InvalidAdaptiveCachePropertyException.class);
        assertThat(List.of("master", "any", "any-replica", "replica")).allSatisfy(name -> RedisClusterSettings.readFrom(name));
    }
}
