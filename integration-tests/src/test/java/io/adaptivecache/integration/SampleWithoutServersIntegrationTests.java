package io.adaptivecache.integration;

import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample on a machine with only a JDK: nothing answers at the configured addresses and PATH
 * holds no server binaries, so it starts the embedded Redis and jmemcached, and still serves
 * cache requests. Runs the sample as its own process, so that its PATH can be an empty folder.
 */
class SampleWithoutServersIntegrationTests {

    @Test
    void theSampleShouldFallBackToTheEmbeddedRedisAndServeCacheRequests(@TempDir Path emptyPath) throws Exception {
        int port = freePort();
        Path log = Files.createTempFile("sample-", ".log");
        ProcessBuilder builder = new ProcessBuilder(List.of(System.getProperty("java.home") + "/bin/java", "-cp",
                System.getProperty("java.class.path"), "io.adaptivecache.sample.SampleApplication", "--server.port=" + port,
                "--adaptive-cache.redis.url=redis://127.0.0.1:" + freePort(), "--adaptive-cache.memcached.servers=127.0.0.1:" + freePort(),
                "--sample.delay-proxy.enabled=false",
                "--logging.level.io.adaptivecache.sample=info")).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PATH", emptyPath.toAbsolutePath().toString());
        Process sample = builder.start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            await("the sample to start").atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> {
                assertThat(sample.isAlive()).as(Files.readString(log)).isTrue();
                return http.send(get(port, "/strategies"), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
            });

            HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/cache/redis/hello"))
                    .header("Content-Type", "text/plain").PUT(HttpRequest.BodyPublishers.ofString("from the embedded redis")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> read = http.send(get(port, "/cache/redis/hello"), HttpResponse.BodyHandlers.ofString());
            String strategies = http.send(get(port, "/strategies"), HttpResponse.BodyHandlers.ofString()).body();

            HttpResponse<String> putMemcached = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/cache/memcached/hello")).header("Content-Type", "text/plain")
                    .PUT(HttpRequest.BodyPublishers.ofString("from jmemcached")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> readMemcached = http.send(get(port, "/cache/memcached/hello"), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> product = http.send(get(port, "/products/5"), HttpResponse.BodyHandlers.ofString());

            assertThat(put.statusCode()).isEqualTo(204);
            assertThat(read.body()).isEqualTo("from the embedded redis");
            assertThat(putMemcached.statusCode()).isEqualTo(204);
            assertThat(readMemcached.body()).isEqualTo("from jmemcached");
            assertThat(product.body()).contains("\"name\":\"Product 5\"");
            assertThat(strategies).contains("\"redis\"").contains("\"memcached\"");
            String output = Files.readString(log);
            assertThat(output).contains("started the embedded Redis").contains("started the embedded jmemcached");
        }
        finally {
            sample.destroy();
            sample.waitFor();
        }
        assertThat(Files.readString(log)).doesNotContain("Exception in thread");
    }

    private static HttpRequest get(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build();
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
