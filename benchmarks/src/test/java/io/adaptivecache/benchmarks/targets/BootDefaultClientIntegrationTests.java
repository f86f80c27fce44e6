package io.adaptivecache.benchmarks.targets;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.devservers.ServerProcess;
import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.health.contributor.HealthContributor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The boot-default target on real servers: a Spring Boot context starts with the starter's
 * defaults, its template bean serves the benchmark's calls on the strategy the starter starts on,
 * and closing the target closes the context and with it every connection it opened.
 */
class BootDefaultClientIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    @ParameterizedTest
    @EnumSource(names = {"REDIS", "MEMCACHED"})
    void theContextsTemplateServesAndClosesWithTheTarget(Backend backend) {
        ServerProcess server = backend == Backend.REDIS ? redis.server() : memcached.server();
        int before = server.connectedClients();
        BootDefaultClient client = BootDefaultClient.open(backend, ServerProcess.HOST, server.port());
        try {
            client.set("boot:key", "value".getBytes(StandardCharsets.UTF_8));
            assertThat(client.get("boot:key")).asString(StandardCharsets.UTF_8).isEqualTo("value");
            // Written to the server, not only to a local tier.
            assertThat(backend == Backend.REDIS ? redis.server().command("GET", "boot:key") : memcached.server().get("boot:key"))
                    .isEqualTo("value");
            // The starter's initial strategy, MULTI at one connection per processor, and its switcher is the context's.
            assertThat(client.liveStrategy()).isEqualTo("MULTI(" + Runtime.getRuntime().availableProcessors() + ")");
            assertThat(server.connectedClients()).isGreaterThan(before);
            // A typical service: Boot's meter registry with the template's meters, and Actuator's health contributor.
            MeterRegistry meters = client.context().getBean(MeterRegistry.class);
            assertThat(meters).isInstanceOf(SimpleMeterRegistry.class);
            assertThat(meters.find("adaptive.cache.connections.open").gauges()).isNotEmpty();
            assertThat(client.context().getBeansOfType(HealthContributor.class)).containsKey("adaptiveCacheHealthContributor");
        }
        finally {
            client.close();
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(server.connectedClients()).isEqualTo(before));
    }
}
