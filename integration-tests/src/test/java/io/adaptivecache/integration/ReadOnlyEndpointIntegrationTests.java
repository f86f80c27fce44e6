package io.adaptivecache.integration;

import java.net.http.HttpResponse;

import io.adaptivecache.sample.SampleApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that exposes the adaptivecache endpoint but keeps its access read-only (the
 * default; the sample opens it for its page, so this test closes it again): reads work, and the
 * write operation does not exist over HTTP, so nothing can pin or switch a strategy.
 */
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoint.adaptivecache.access=read-only", "adaptive-cache.redis.adaptive.initial=multi" })
class ReadOnlyEndpointIntegrationTests extends SampleOverHttp {

    @Test
    void readsShouldWorkAndThePinShouldNotBeReachable() throws Exception {
        assertThat(send("GET", "/actuator/adaptivecache/redis", null).body()).contains("\"backend\":\"redis\"")
                .contains("\"resilience\"").contains("\"circuitState\":\"CLOSED\"");

        HttpResponse<String> pin = send("POST", "/actuator/adaptivecache/redis", "{\"action\":\"pin\",\"strategy\":\"single\"}");

        assertThat(pin.statusCode()).isBetween(400, 499);
        assertThat(send("GET", "/actuator/adaptivecache/redis", null).body()).doesNotContain("\"pinned\":\"SINGLE");
    }
}
