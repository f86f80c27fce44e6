package io.adaptivecache.integration;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.sample.SampleApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The adaptivecache Actuator endpoint and health over HTTP, on the sample app against real servers. */
// Starts on MULTI rather than the sample's demo POOLED: these tests are about the endpoint and the
// page, and a 200 ms pool wait on a loaded machine would count as a load error before any switch.
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "adaptive-cache.redis.adaptive.initial=multi")
class AdaptiveEndpointIntegrationTests extends SampleOverHttp {

    @Test
    void theEndpointShouldListEveryTemplateWithItsStrategyAndMode() throws Exception {
        HttpResponse<String> all = send("GET", "/actuator/adaptivecache", null);

        assertThat(all.statusCode()).isEqualTo(200);
        // The other tests may have switched redis meanwhile; memcached starts MULTI and has nothing to shrink to here.
        assertThat(all.body()).contains("\"redis\"").contains("\"memcached\"").contains("\"mode\":\"auto\"")
                .contains("\"strategy\":\"MULTI(").contains("\"recentSwitches\"");
        assertThat(send("GET", "/actuator/adaptivecache/redis", null).body()).contains("\"backend\":\"redis\"");
        assertThat(send("GET", "/actuator/adaptivecache/nope", null).statusCode()).isEqualTo(404);
    }

    @Test
    void aForcedSwitchThroughTheEndpointUnderLoadShouldFailNoCall() throws Exception {
        CompletableFuture<HttpResponse<String>> load = CompletableFuture.supplyAsync(() -> {
            try {
                return send("POST", "/load?backend=redis&threads=32&duration=PT3S&valueSize=100", null);
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        java.util.regex.Pattern busy = java.util.regex.Pattern.compile("\"redis\":\\{[^}]*\"inFlight\":[1-9]");
        org.awaitility.Awaitility.await("calls in flight on redis").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(() -> busy.matcher(send("GET", "/strategies", null).body()).find());
        HttpResponse<String> trial = send("POST", "/actuator/adaptivecache/redis", "{\"action\":\"trial\",\"strategy\":\"multi\",\"connections\":3}");
        HttpResponse<String> pin = send("POST", "/actuator/adaptivecache/redis", "{\"action\":\"pin\",\"strategy\":\"single\"}");
        HttpResponse<String> loadResult = load.get();

        assertThat(trial.statusCode()).isEqualTo(200);
        assertThat(trial.body()).contains("\"strategy\":\"MULTI(3, ROUND_ROBIN)\"").contains("\"reason\":\"OPERATOR\"");
        assertThat(pin.body()).contains("\"pinned\":\"SINGLE\"");
        assertThat(loadResult.statusCode()).isEqualTo(200);
        assertThat(loadResult.body()).contains("\"errors\":0").doesNotContain("\"operations\":0,");
        assertThat(send("POST", "/actuator/adaptivecache/redis", "{\"action\":\"unpin\"}").body()).doesNotContain("\"pinned\":\"");
    }

    @Test
    void healthShouldIncludeEachTemplate() throws Exception {
        HttpResponse<String> health = send("GET", "/actuator/health", null);

        assertThat(health.body()).contains("\"adaptiveCache\"").contains("\"redis\"").contains("\"memcached\"")
                .contains("\"status\":\"UP\"");
    }
}
