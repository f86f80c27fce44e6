package io.adaptivecache.integration;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample runs with {@code java -jar}: the executable jar that the build produces
 * starts in its own JVM, starts its own local Redis and memcached (nothing answers at the free
 * loopback ports it is given), reports UP for both templates on {@code /actuator/health}, and
 * stops everything it started when it is asked to stop. A jar without Boot's repackaging fails
 * here with "no main manifest attribute"; a sample that cannot reach its servers fails on the
 * health status.
 */
class ExecutableJarIntegrationTests {

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void theExecutableJarShouldStartWithItsOwnServersReportUpAndStopThemOnShutdown() throws Exception {
        // Nothing listens at these free ports, so the sample starts its own servers.
        List<String> arguments = List.of("--adaptive-cache.redis.url=redis://127.0.0.1:" + SampleJar.freePort(),
                "--adaptive-cache.memcached.servers=127.0.0.1:" + SampleJar.freePort(), "--sample.demo-load.enabled=false");
        try (SampleJar sample = SampleJar.start(List.of(), arguments)) {
            JsonNode health = sample.awaitUp(Duration.ofSeconds(45));
            assertThat(health.path("status").asString()).as("overall health").isEqualTo("UP");
            JsonNode templates = health.path("components").path("adaptiveCache").path("components");
            assertThat(templates.path("redis").path("status").asString()).as("the Redis template's health").isEqualTo("UP");
            assertThat(templates.path("memcached").path("status").asString()).as("the memcached template's health").isEqualTo("UP");
            List<ProcessHandle> children = sample.children();
            assertThat(children).as("the servers the sample started").isNotEmpty();

            assertThat(sample.stop(Duration.ofSeconds(30))).as("the sample stops on SIGTERM; log:%n%s", sample.tail()).isTrue();
            for (ProcessHandle child : children) {
                child.onExit().completeOnTimeout(child, 5, TimeUnit.SECONDS).join();
            }
            assertThat(children).as("the server processes the sample started are stopped with it")
                    .noneMatch(ProcessHandle::isAlive);
        }
    }
}
