package io.adaptivecache.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpoint;
import io.adaptivecache.actuate.endpoint.AdaptiveCacheEndpointWebExtension;
import io.adaptivecache.autoconfigure.endpoint.AdaptiveCacheEndpointAutoConfiguration;
import io.adaptivecache.autoconfigure.health.AdaptiveCacheHealthContributorAutoConfiguration;
import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application whose cache server is not running when it starts: with
 * {@code resilience.on-failure: degrade} the context starts, health is DOWN saying the template
 * has not connected yet, calls degrade, and once a server is started on the configured port the
 * template connects with no restart (health UP, a round trip the server holds). With
 * {@code fail-fast} the start fails as before. Real redis-server and memcached, started on the
 * port the application was given after it started.
 */
@ExtendWith(OutputCaptureExtension.class)
class AdaptiveCacheDegradedStartTests {

    private static final String VALUE = "written after the server appeared";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AdaptiveCacheAutoConfiguration.class, AdaptiveCacheEndpointAutoConfiguration.class,
                    AdaptiveCacheHealthContributorAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=adaptivecache");

    private ServerProcess server;

    @AfterEach
    void stopServer() {
        if (this.server != null) {
            this.server.stop();
        }
    }

    @Test
    void redisShouldStartDegradedAndConnectWhenTheServerAppears(CapturedOutput output) {
        int port = freedPort(new RedisServer());
        RedisServer redis = (RedisServer) this.server;
        redisRunner(port, "degrade").run(context -> {
            assertThat(context).hasNotFailed();
            ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
            assertNotConnectedYet(health(context, "redis"), port);
            assertThat(connectorThreads("redis")).hasSize(1);

            assertThat(template.get("degraded:k")).as("a miss").isNull();
            template.set("degraded:k", bytes("skipped"), Duration.ZERO);
            for (int i = 0; i < 100; i++) {
                template.get("degraded:" + i);
            }
            assertThat(template.stats().degradedReads()).isEqualTo(101);
            assertThat(template.stats().skippedWrites()).isEqualTo(1);
            assertThat(template.stats().guardStatus().circuitState()).as("refused calls do not open the breaker").isEqualTo("CLOSED");

            WebEndpointResponse<Object> pin = new AdaptiveCacheEndpointWebExtension(context.getBean(AdaptiveCacheEndpoint.class))
                    .control("redis", "pin", "single", null);
            assertThat(pin.getStatus()).isEqualTo(503);
            assertThat(((AdaptiveCacheEndpoint.ErrorDescriptor) pin.getBody()).error()).contains("has not connected")
                    .contains("127.0.0.1:" + port).contains("nothing changed");

            redis.restart(); // on the port the application was given

            await("health to go UP").atMost(Duration.ofSeconds(15)).until(() -> health(context, "redis").getStatus().equals(Status.UP));
            template.set("degraded:k", bytes(VALUE), Duration.ZERO);
            assertThat(template.get("degraded:k")).isEqualTo(bytes(VALUE));
            assertThat(redis.command("GET", "degraded:k")).as("the server holds it").isEqualTo(VALUE);
            Health up = health(context, "redis");
            assertThat(up.getDetails()).containsEntry("strategy", StrategySpec.multi(2, SelectorType.ROUND_ROBIN).toString())
                    .doesNotContainKey("lastFailure");
            assertThat(redis.connectedClients()).as("the configured MULTI(2) and nothing the refused pin opened").isEqualTo(2);
            assertThat(template.stats().degradedReads()).isEqualTo(101);
            // The line saying it connected is INFO, which these tests' logging (WARN and above) does not print.
            assertThat(occurrences(output.toString(), "started without its server")).as("one WARN at startup").isEqualTo(1);
        });
    }

    @Test
    void retriesShouldLogNothingMoreAndNoMessageShouldCarryThePassword(CapturedOutput output) {
        int port = freedPort(new RedisServer());
        String password = "pw-never-shown-4711";
        redisRunner(port, "degrade").withPropertyValues("adaptive-cache.redis.url=redis://alice:" + password + "@127.0.0.1:" + port)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ManagedCacheTemplate template = context.getBean("redisCacheTemplate", ManagedCacheTemplate.class);
                    await("three retries").atMost(Duration.ofSeconds(10))
                            .until(() -> template.stats().pendingConnection().orElseThrow().attempts() >= 4);
                    Health health = health(context, "redis");
                    WebEndpointResponse<Object> pin = new AdaptiveCacheEndpointWebExtension(context.getBean(AdaptiveCacheEndpoint.class))
                            .control("redis", "trial", "single", null);

                    assertThat(occurrences(output.toString(), "started without its server")).as("one WARN, not one per retry")
                            .isEqualTo(1);
                    assertThat(output.toString()).doesNotContain(password);
                    assertThat(health.getDetails().toString()).contains("127.0.0.1:" + port).doesNotContain(password);
                    assertThat(pin.getStatus()).isEqualTo(503);
                    assertThat(pin.getBody().toString()).doesNotContain(password);
                });
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    @ParameterizedTest
    @ValueSource(strings = { "spymemcached", "xmemcached" })
    void memcachedShouldStartDegradedAndConnectWhenTheServerAppears(String driver) {
        int port = freedPort(new MemcachedServer());
        memcachedRunner(port, driver, "degrade").run(context -> {
            assertThat(context).hasNotFailed();
            ManagedCacheTemplate template = context.getBean("memcachedCacheTemplate", ManagedCacheTemplate.class);
            assertNotConnectedYet(health(context, "memcached"), port);

            assertThat(template.get("degraded:k")).isNull();
            template.set("degraded:k", bytes("skipped"), Duration.ZERO);
            assertThat(template.stats().degradedReads()).isEqualTo(1);
            assertThat(template.stats().skippedWrites()).isEqualTo(1);

            this.server.restart();

            await("health to go UP").atMost(Duration.ofSeconds(15))
                    .until(() -> health(context, "memcached").getStatus().equals(Status.UP));
            template.set("degraded:k", bytes(VALUE), Duration.ZERO);
            assertThat(template.get("degraded:k")).isEqualTo(bytes(VALUE));
            assertThat(((MemcachedServer) this.server).get("degraded:k")).as("the server holds it").isEqualTo(VALUE);
        });
    }

    @Test
    void closingTheContextBeforeTheServerAppearsShouldStopTheBackgroundThread() {
        int port = freedPort(new RedisServer());
        redisRunner(port, "degrade").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(connectorThreads("redis")).hasSize(1);
        });
        assertThat(connectorThreads("redis")).as("nothing outlives the context").isEmpty();
    }

    @Test
    void failFastShouldStillFailTheStart() {
        int port = freedPort(new RedisServer());
        redisRunner(port, "fail-fast").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new CacheConnectionFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).as("a CacheConnectionException failed the start").isNotNull();
            assertThat(analysis.getDescription()).contains("could not connect at startup").contains(Integer.toString(port));
        });
        assertThat(connectorThreads("redis")).isEmpty();
        int memcachedPort = freedPort(new MemcachedServer());
        memcachedRunner(memcachedPort, "spymemcached", "fail-fast").run(context -> assertThat(context).hasFailed());
    }

    private ApplicationContextRunner redisRunner(int port, String onFailure) {
        return this.contextRunner.withPropertyValues("adaptive-cache.redis.url=redis://127.0.0.1:" + port,
                "adaptive-cache.memcached.enabled=false", "adaptive-cache.redis.resilience.on-failure=" + onFailure,
                "adaptive-cache.redis.connect-timeout=1s", "adaptive-cache.redis.strategy.type=multi",
                "adaptive-cache.redis.strategy.multi.connections=2");
    }

    private ApplicationContextRunner memcachedRunner(int port, String driver, String onFailure) {
        return this.contextRunner.withPropertyValues("adaptive-cache.memcached.servers=127.0.0.1:" + port,
                "adaptive-cache.redis.enabled=false", "adaptive-cache.memcached.driver=" + driver,
                "adaptive-cache.memcached.resilience.on-failure=" + onFailure, "adaptive-cache.memcached.connect-timeout=1s");
    }

    private static void assertNotConnectedYet(Health health, int port) {
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().get("reason").toString()).contains("not connected yet");
        assertThat(health.getDetails().get("server").toString()).contains(Integer.toString(port));
        assertThat(health.getDetails().get("lastFailure").toString()).as("why the last attempt failed").contains(Integer.toString(port));
        assertThat(Instant.parse(health.getDetails().get("nextAttempt").toString())).as("when the next attempt is due")
                .isAfter(Instant.now().minusSeconds(60));
    }

    private static Health health(AssertableApplicationContext context, String name) {
        return ((HealthIndicator) context.getBean("adaptiveCacheHealthContributor", CompositeHealthContributor.class)
                .getContributor(name)).health();
    }

    /** A port a server of the kind was just started and stopped on: free now, and that server can start on it again. */
    private int freedPort(ServerProcess process) {
        if (this.server != null) {
            this.server.stop();
        }
        this.server = process;
        process.start();
        int port = process.port();
        process.stop();
        return port;
    }

    private static List<Thread> connectorThreads(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("adaptive-cache-connect-" + name) && thread.isAlive()).toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
