package io.adaptivecache.integration;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;

import io.adaptivecache.testservers.MemcachedServerExtension;
import io.adaptivecache.testservers.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample as the build processes it ahead of time ({@code spring-boot:process-aot}), run from
 * its executable jar in its own JVM with {@code -Dspring.aot.enabled=true}, against a real
 * redis-server and memcached on free loopback ports. It must start from the generated bean
 * definitions (Boot says "Starting AOT-processed"; without the flag it starts the ordinary way and
 * the log check fails), cache a product in the real Redis under the key the {@code products}
 * cache uses (read back with a separate Lettuce client), and serve the second read from there
 * (a value changed on the server comes back, and the slow lookup does not run again). The jar
 * must also carry the starter's runtime hints in its native-image metadata: only a native image
 * reads them, so the JVM run cannot tell whether they are there.
 */
class AotSampleIntegrationTests {

    private static final Duration STARTUP = Duration.ofSeconds(60);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    static final MemcachedServerExtension memcached = new MemcachedServerExtension();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void theJarShouldCarryTheGeneratedContextAndTheStartersHints() throws IOException {
        try (JarFile jar = new JarFile(SampleJar.jar().toFile())) {
            assertThat(jar.getEntry("BOOT-INF/classes/io/adaptivecache/sample/SampleApplication__ApplicationContextInitializer.class"))
                    .as("the context initializer process-aot generates").isNotNull();
            String metadata = entry(jar, "META-INF/native-image/io.adaptivecache/adaptive-cache-sample/reachability-metadata.json");
            assertThat(metadata).as("the starter's hints (AdaptiveCacheRuntimeHints, META-INF/spring/aot.factories)")
                    .contains("\"io.netty.channel.epoll.Epoll\"")
                    .containsPattern("\"proxy\"\\s*:\\s*\\[\\s*\"net\\.spy\\.memcached\\.ConnectionFactory\"");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theProcessedSampleShouldStartAheadOfTimeAndCacheAProductInTheRealRedis() throws Exception {
        RedisClient client = RedisClient.create(redis.uri());
        try (SampleJar sample = SampleJar.start(List.of("-Dspring.aot.enabled=true"),
                List.of("--adaptive-cache.redis.url=" + redis.uri(), "--adaptive-cache.memcached.servers=" + memcached.addresses(),
                        "--sample.demo-load.enabled=false", "--sample.delay-proxy.enabled=false"));
                StatefulRedisConnection<String, String> server = client.connect()) {
            sample.awaitUp(STARTUP);
            assertThat(sample.output()).as("the sample started from the generated bean definitions")
                    .contains("Starting AOT-processed SampleApplication");

            String first = get(sample, "/products/41");
            assertThat(first).contains("\"name\":\"Product 41\"");
            long lookups = slowLookups(first);

            List<String> keys = server.sync().keys("sample:products:*:41");
            assertThat(keys).as("the products cache's key for 41 in the real Redis").hasSize(1);
            String stored = server.sync().get(keys.get(0));
            assertThat(stored).as("the cached JSON value").contains("io.adaptivecache.sample.ProductCatalog$Product")
                    .contains("\"name\":\"Product 41\"");

            // Changed on the server: the next read shows the change only if it comes from this entry.
            server.sync().set(keys.get(0), stored.replace("\"name\":\"Product 41\"", "\"name\":\"Product 41 from Redis\""));
            String second = get(sample, "/products/41");
            assertThat(second).as("the second read, from the cache").contains("\"name\":\"Product 41 from Redis\"");
            assertThat(slowLookups(second)).as("slow lookups after the second read").isEqualTo(lookups);
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static String entry(JarFile jar, String name) throws IOException {
        ZipEntry entry = jar.getEntry(name);
        assertThat(entry).as(name).isNotNull();
        try (InputStream in = jar.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private String get(SampleJar sample, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(sample.uri(path)).timeout(Duration.ofSeconds(10)).GET().build();
        HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return response.body();
    }

    private static long slowLookups(String body) {
        Matcher matcher = Pattern.compile("\"slowLookups\":(\\d+)").matcher(body);
        assertThat(matcher.find()).as(body).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
