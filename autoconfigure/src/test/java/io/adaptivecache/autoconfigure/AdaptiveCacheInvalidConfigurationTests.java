package io.adaptivecache.autoconfigure;

import io.adaptivecache.CacheConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.analyzer.BootFailureAnalyzers;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad configuration fails at startup naming the property and what is allowed; no server is needed to get there. */
class AdaptiveCacheInvalidConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class))
            .withPropertyValues("adaptive-cache.memcached.enabled=false");

    @Test
    void malformedRedisUrlShouldNameTheProperty() {
        assertFailsWith("adaptive-cache.redis.url=http//not a url", "adaptive-cache.redis.url", "redis://");
    }

    @Test
    void poolMaxIdleOverMaxTotalShouldNameTheProperty() {
        assertFailsWith("adaptive-cache.redis.strategy.pool.max-idle=16", "adaptive-cache.redis.strategy.pool.max-idle",
                "between 0 and max-total (8)", "adaptive-cache.redis.strategy.type=pooled");
    }

    @Test
    void anUnknownTransportShouldNameTheProperty() {
        // Boot's own binder refuses it, with its own failure analysis, before any bean exists.
        this.contextRunner.withPropertyValues("adaptive-cache.redis.transport=kqueue").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("adaptive-cache.redis.transport")
                    .hasStackTraceContaining("kqueue");
        });
    }

    @Test
    void zeroOrNegativeConnectionCountsShouldNameTheProperty() {
        assertFailsWith("adaptive-cache.redis.strategy.multi.connections=0", "adaptive-cache.redis.strategy.multi.connections",
                "at least 1");
        assertFailsWith("adaptive-cache.redis.strategy.multi.connections=-2", "adaptive-cache.redis.strategy.multi.connections",
                "at least 1");
    }

    @Test
    void malformedMemcachedServerShouldNameTheEntry() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class))
                .withPropertyValues("adaptive-cache.redis.enabled=false",
                        "adaptive-cache.memcached.servers=127.0.0.1:11211,no-port-here")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("adaptive-cache.memcached.servers[1]").contains("no-port-here");
                });
    }

    @Test
    void nonPositiveTimeoutsShouldNameTheProperty() {
        assertFailsWith("adaptive-cache.redis.timeout=0s", "adaptive-cache.redis.timeout", "positive duration");
    }

    @Test
    void anUnknownStrategyNameShouldListTheValidOnes() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.strategy.type=turbo").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = BootFailureAnalyzers.bindFailure(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("adaptive-cache.redis.strategy.type").contains("turbo");
            assertThat(analysis.getAction()).contains("SINGLE").contains("MULTI").contains("POOLED").contains("ADAPTIVE");
        });
    }

    @Test
    void anUnreachableServerShouldSayHowToFixIt() {
        this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://127.0.0.1:1", "adaptive-cache.redis.connect-timeout=200ms")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("127.0.0.1:1");
                    assertThat(analysis.getAction()).contains("adaptive-cache.redis.enabled=false");
                    assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(java.net.ConnectException.class);
                    assertThat(findCause(context.getStartupFailure())).isNotNull();
                });
    }

    @Test
    void badValuesShouldFailWhenBoundBeforeAnyTemplateIsMadeNamingThePropertyAndTheRule() {
        // Only the properties: no template, switcher or guard exists to check them, so binding did.
        ApplicationContextRunner propertiesOnly = new ApplicationContextRunner().withUserConfiguration(PropertiesOnly.class);
        String[][] cases = {
            { "adaptive-cache.redis.port=70000", "adaptive-cache.redis.port", "between 1 and 65535" },
            { "adaptive-cache.redis.max-value-size=0B", "adaptive-cache.redis.max-value-size", "between 1B and 2GB" },
            { "adaptive-cache.redis.cluster.max-redirects=-1", "adaptive-cache.redis.cluster.max-redirects", "0 or more" },
            { "adaptive-cache.redis.adaptive.dwell=0s", "adaptive-cache.redis.adaptive.dwell", "positive duration" },
            { "adaptive-cache.redis.resilience.circuit-breaker.failure-rate-threshold=0",
                "adaptive-cache.redis.resilience.circuit-breaker.failure-rate-threshold", "percentage above 0 and at most 100" },
            { "adaptive-cache.memcached.item-size-max=512B", "adaptive-cache.memcached.item-size-max", "between 1KB and 2GB" },
            { "adaptive-cache.memcached.max-reconnect-delay=500ms", "adaptive-cache.memcached.max-reconnect-delay", "at least 1s" },
            { "adaptive-cache.memcached.strategy.pool.min-idle=9", "adaptive-cache.memcached.strategy.pool.min-idle",
                "between 0 and max-idle (8)" },
            { "adaptive-cache.cache.default-ttl=-1s", "adaptive-cache.cache.default-ttl", "zero (no expiry)" },
            { "adaptive-cache.cache.near.maximum-entries=0", "adaptive-cache.cache.near.maximum-entries", "at least 1" },
            { "adaptive-cache.cache.near.heartbeat-timeout=0s", "adaptive-cache.cache.near.heartbeat-timeout", "positive duration" },
            { "adaptive-cache.cache.near.caches.products.max-staleness=0s", "adaptive-cache.cache.near.caches.products.max-staleness",
                "positive duration" },
        };
        for (String[] bad : cases) {
            propertiesOnly.withPropertyValues(bad[0]).run(context -> {
                assertThat(context).as(bad[0]).hasFailed();
                FailureAnalysis analysis = analyze(context.getStartupFailure());
                assertThat(analysis).as("failure analysis of %s", bad[0]).isNotNull();
                assertThat(analysis.getDescription()).as(bad[0]).contains(bad[1]).contains(bad[2]);
            });
        }
    }

    @Test
    void aDisabledSectionShouldNotBeChecked() {
        new ApplicationContextRunner().withUserConfiguration(PropertiesOnly.class)
                .withPropertyValues("adaptive-cache.redis.enabled=false", "adaptive-cache.redis.timeout=0s",
                        "adaptive-cache.memcached.enabled=false", "adaptive-cache.memcached.servers=",
                        "adaptive-cache.cache.enabled=false", "adaptive-cache.cache.default-ttl=-1s")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void saslOverTheTextProtocolShouldNameTheProtocol() {
        new ApplicationContextRunner().withUserConfiguration(PropertiesOnly.class)
                .withPropertyValues("adaptive-cache.memcached.username=bob", "adaptive-cache.memcached.protocol=text").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(analyze(context.getStartupFailure()).getDescription()).contains("adaptive-cache.memcached.protocol")
                            .contains("SASL authentication (adaptive-cache.memcached.username) needs the binary protocol");
                });
    }

    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @org.springframework.boot.context.properties.EnableConfigurationProperties({ AdaptiveCacheRedisProperties.class,
            AdaptiveCacheMemcachedProperties.class, AdaptiveCacheSpringCacheProperties.class })
    static class PropertiesOnly {
    }

    private static CacheConnectionException findCause(Throwable failure) {
        Throwable cause = failure;
        while (cause != null && !(cause instanceof CacheConnectionException)) {
            cause = cause.getCause();
        }
        return (CacheConnectionException) cause;
    }

    private void assertFailsWith(String property, String expectedProperty, String expectedReason, String... more) {
        InvalidValues.assertRejected(this.contextRunner, property, expectedProperty, expectedReason, more);
    }

    private static FailureAnalysis analyze(Throwable failure) {
        return BootFailureAnalyzers.invalidValue(failure);
    }
}
