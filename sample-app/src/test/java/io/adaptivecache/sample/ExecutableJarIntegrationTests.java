package io.adaptivecache.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The packaged sample runs with {@code java -jar}: the executable jar that the build produces
 * starts in its own JVM, starts its own local Redis and memcached (nothing answers at the free
 * loopback ports it is given), reports UP for both templates on {@code /actuator/health}, and
 * stops everything it started when it is asked to stop. A jar without Boot's repackaging fails
 * here with "no main manifest attribute"; a sample that cannot reach its servers fails on the
 * health status.
 */
class ExecutableJarIntegrationTests {

    private static final Duration STARTUP = Duration.ofSeconds(45);

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void theExecutableJarShouldStartWithItsOwnServersReportUpAndStopThemOnShutdown() throws Exception {
        Path jar = Path.of(System.getProperty("sample.executable-jar", "target/missing-sample.executable-jar-property.jar"));
        assertThat(jar).as("the executable jar the build packages (Boot's repackage goal)").isRegularFile();
        int httpPort = freePort();
        int redisPort = freePort();
        int memcachedPort = freePort();
        Path log = Files.createTempFile("sample-jar-", ".log");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
                jar.toString(), "--server.port=" + httpPort, "--server.address=127.0.0.1",
                // Nothing listens here (free ports), so the sample starts its own servers.
                "--adaptive-cache.redis.url=redis://127.0.0.1:" + redisPort,
                "--adaptive-cache.memcached.servers=127.0.0.1:" + memcachedPort);
        Process sample = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        List<ProcessHandle> children = new ArrayList<>();
        try {
            JsonNode health = awaitHealth(sample, httpPort, log);
            assertThat(health.path("status").asString()).as("overall health").isEqualTo("UP");
            JsonNode templates = health.path("components").path("adaptiveCache").path("components");
            assertThat(templates.path("redis").path("status").asString()).as("the Redis template's health").isEqualTo("UP");
            assertThat(templates.path("memcached").path("status").asString()).as("the memcached template's health").isEqualTo("UP");
            sample.descendants().forEach(children::add);

            sample.destroy(); // SIGTERM: Boot's graceful shutdown, then the sample stops what it started
            assertThat(sample.waitFor(30, TimeUnit.SECONDS)).as("the sample stops on SIGTERM; log:%n%s", tail(log)).isTrue();
            for (ProcessHandle child : children) {
                child.onExit().completeOnTimeout(child, 5, TimeUnit.SECONDS).join();
            }
            assertThat(children).as("the server processes the sample started are stopped with it")
                    .noneMatch(ProcessHandle::isAlive);
        }
        finally {
            sample.destroyForcibly();
            sample.waitFor(10, TimeUnit.SECONDS);
            sample.descendants().forEach(ProcessHandle::destroyForcibly);
            children.forEach(ProcessHandle::destroyForcibly);
            Files.deleteIfExists(log);
        }
    }

    private static JsonNode awaitHealth(Process sample, int port, Path log) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = System.nanoTime() + STARTUP.toNanos();
        String lastBody = null;
        while (System.nanoTime() - deadline < 0) {
            if (!sample.isAlive()) {
                fail("java -jar exited with %d before answering; output:%n%s", sample.exitValue(), tail(log));
            }
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                lastBody = response.body();
                JsonNode health = JsonMapper.builder().build().readTree(lastBody);
                if ("UP".equals(health.path("status").asString())) {
                    return health;
                }
            }
            catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        return fail("/actuator/health was not UP within %s (last answer: %s); output:%n%s", STARTUP, lastBody, tail(log));
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.length() > 6000 ? text.substring(text.length() - 6000) : text;
        }
        catch (IOException ex) {
            return "(no output: " + ex + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
