package io.adaptivecache.integration;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.adaptivecache.sample.SampleApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample app, started against real servers, driven over HTTP as a person would. */
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SampleApplicationIntegrationTests extends RealCacheServers {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Autowired
    private Environment environment;

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + this.environment.getProperty("local.server.port") + path);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).header("Content-Type", "text/plain")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return this.http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aProductShouldBeLookedUpOnceThenServedFromTheCache() throws Exception {
        HttpResponse<String> first = send("GET", "/products/41", null);
        HttpResponse<String> second = send("GET", "/products/41", null);
        send("DELETE", "/products/41", null);
        HttpResponse<String> afterEviction = send("GET", "/products/41", null);

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).contains("\"name\":\"Product 41\"");
        long lookupsAfterFirst = slowLookups(first.body());
        assertThat(slowLookups(second.body())).isEqualTo(lookupsAfterFirst);
        assertThat(slowLookups(afterEviction.body())).isEqualTo(lookupsAfterFirst + 1);
        assertThat(redis.server().info("keyspace", "db0")).contains("keys=");
    }

    @Test
    void bothTemplatesShouldBeUsableDirectly() throws Exception {
        for (String backend : new String[] {"redis", "memcached"}) {
            assertThat(send("PUT", "/cache/" + backend + "/greeting", "hello " + backend).statusCode()).isEqualTo(204);
            HttpResponse<String> read = send("GET", "/cache/" + backend + "/greeting", null);
            assertThat(read.statusCode()).isEqualTo(200);
            assertThat(read.body()).isEqualTo("hello " + backend);
            assertThat(send("DELETE", "/cache/" + backend + "/greeting", null).statusCode()).isEqualTo(204);
            assertThat(send("GET", "/cache/" + backend + "/greeting", null).statusCode()).isEqualTo(404);
        }
        assertThat(send("PUT", "/cache/memcached/bad%20key", "x").statusCode()).as("a key memcached cannot take").isEqualTo(400);
    }

    @Test
    void strategiesShouldBeVisibleAndSwitchableWhileTheLoadGeneratorRuns() throws Exception {
        assertThat(send("GET", "/strategies", null).body()).contains("\"redis\"").contains("\"memcached\"").contains("MULTI(");

        HttpResponse<String> switched = send("POST", "/strategies/redis?type=POOLED&maxTotal=4", null);
        assertThat(switched.statusCode()).isEqualTo(200);
        assertThat(switched.body()).contains("\"to\":\"POOLED(max-total=4").contains("\"drainedCleanly\":true");

        HttpResponse<String> load = send("POST", "/load?backend=redis&threads=4&duration=PT1S&valueSize=64", null);
        assertThat(load.statusCode()).isEqualTo(200);
        assertThat(load.body()).contains("\"errors\":0").doesNotContain("\"operations\":0,");
        assertThat(send("GET", "/strategies", null).body()).contains("POOLED(max-total=4");

        assertThat(send("POST", "/load?threads=1000", null).statusCode()).as("bounded").isEqualTo(400);
        assertThat(send("POST", "/strategies/redis?type=SINGLE", null).statusCode()).isEqualTo(200);
    }

    @Test
    void aSimulatedNetworkDelayShouldKeepEveryReplyInOrder() throws Exception {
        assertThat(send("GET", "/delay", null).body()).contains("\"proxied\":true");
        assertThat(send("POST", "/delay?millis=5", null).body()).contains("\"millisEachWay\":5");
        try {
            for (int i = 0; i < 20; i++) {
                assertThat(send("PUT", "/cache/redis/delayed-" + i, "value-" + i).statusCode()).isEqualTo(204);
            }
            for (int i = 0; i < 20; i++) {
                assertThat(send("GET", "/cache/redis/delayed-" + i, null).body()).isEqualTo("value-" + i);
            }
            HttpResponse<String> load = send("POST", "/load?backend=memcached&threads=8&duration=PT1S&valueSize=64", null);
            assertThat(load.body()).contains("\"errors\":0");
        }
        finally {
            send("POST", "/delay?millis=0", null);
        }
        assertThat(send("POST", "/delay?millis=-1", null).statusCode()).isEqualTo(400);
    }

    private static long slowLookups(String body) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("\"slowLookups\":(\\d+)").matcher(body);
        assertThat(matcher.find()).as(body).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
