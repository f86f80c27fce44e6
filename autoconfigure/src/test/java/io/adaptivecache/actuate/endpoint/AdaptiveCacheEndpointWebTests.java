package io.adaptivecache.actuate.endpoint;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.adaptive.AdaptiveState;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.autoconfigure.AdaptiveCacheSwitchers;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code adaptivecache} write operation over HTTP, in an application on a real web server
 * against a real redis-server: every refused request is a 400 (404 for an unknown template) whose
 * body says what was wrong and what is allowed, and opens no connection, counted by the server
 * ({@code total_connections_received} and {@code connected_clients}, from a baseline taken before
 * the request); a strategy the server will not take is a 503 that changes nothing.
 */
class AdaptiveCacheEndpointWebTests {

    private static final String LIMIT_PROPERTY = "adaptive-cache.redis.adaptive.connection-limit";

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static ConfigurableApplicationContext app;

    private StrategySpec initial;

    @BeforeAll
    static void startApplication() {
        app = start(redis.uri(), LIMIT_PROPERTY + "=6");
    }

    @AfterAll
    static void stopApplication() {
        if (app != null) {
            app.close();
        }
    }

    /**
     * An application with every auto-configuration on the classpath (web server and Actuator
     * included), the endpoint exposed and writable, and a window so long that the switcher never
     * evaluates during a test: only the requests change anything.
     */
    static ConfigurableApplicationContext start(String redisUri, String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
                "adaptive-cache.redis.url=" + redisUri, "adaptive-cache.memcached.enabled=false",
                "adaptive-cache.redis.strategy.type=adaptive", "adaptive-cache.redis.adaptive.initial=multi",
                "adaptive-cache.redis.strategy.multi.connections=2", "adaptive-cache.redis.pooled-driver=lettuce",
                "adaptive-cache.redis.adaptive.window=1h", "management.endpoints.web.exposure.include=adaptivecache",
                "management.endpoint.adaptivecache.access=unrestricted"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(WebApplication.class).properties(all.toArray(String[]::new)).run();
    }

    @BeforeEach
    void rememberTheStrategy() {
        this.initial = switcher(app).state().active();
    }

    @AfterEach
    void restoreTheStrategy() {
        StrategySwitcher switcher = switcher(app);
        switcher.unpin();
        switcher.template().switchStrategy(this.initial);
    }

    @Test
    void anUnknownActionShouldBe400NamingTheActionsAndOpenNothing() throws Exception {
        assertRefused("{\"action\":\"restart\",\"strategy\":\"multi\",\"connections\":2}", 400, "Unknown action 'restart'",
                "pin, unpin or trial");
    }

    @Test
    void aMissingActionShouldBe400NamingTheActions() throws Exception {
        assertRefused("{\"strategy\":\"multi\",\"connections\":2}", 400, "Name an action", "pin, unpin or trial");
    }

    @Test
    void anUnknownStrategyShouldBe400NamingTheStrategiesAndOpenNothing() throws Exception {
        assertRefused("{\"action\":\"pin\",\"strategy\":\"fastest\",\"connections\":2}", 400, "Unknown strategy 'fastest'",
                "single, multi or pooled");
        assertRefused("{\"action\":\"trial\",\"strategy\":\"fastest\"}", 400, "Unknown strategy 'fastest'", "single, multi or pooled");
    }

    @Test
    void aPinOrTrialWithoutAStrategyShouldBe400NamingTheStrategies() throws Exception {
        assertRefused("{\"action\":\"pin\"}", 400, "Action 'pin' needs a strategy", "single, multi or pooled");
        assertRefused("{\"action\":\"trial\",\"connections\":2}", 400, "Action 'trial' needs a strategy", "single, multi or pooled");
    }

    @Test
    void zeroOrNegativeConnectionsShouldBe400NamingTheRangeAndOpenNothing() throws Exception {
        assertRefused("{\"action\":\"pin\",\"strategy\":\"multi\",\"connections\":0}", 400, "must be at least 1, was 0", "1 to 6");
        assertRefused("{\"action\":\"pin\",\"strategy\":\"multi\",\"connections\":-3}", 400, "must be at least 1, was -3", "1 to 6");
        assertRefused("{\"action\":\"pin\",\"strategy\":\"pooled\",\"connections\":0}", 400, "must be at least 1, was 0", "1 to 6");
        assertRefused("{\"action\":\"trial\",\"strategy\":\"pooled\",\"connections\":-1}", 400, "must be at least 1, was -1", "1 to 6");
        assertRefused("{\"action\":\"pin\",\"strategy\":\"multi\",\"connections\":\"many\"}", 400, "must be a whole number, was 'many'",
                "1 to 6");
    }

    @Test
    void connectionsAboveTheLimitShouldBe400NamingTheLimitAndItsPropertyAndOpenNothing() throws Exception {
        assertRefused("{\"action\":\"pin\",\"strategy\":\"multi\",\"connections\":100000}", 400,
                "100000 is above the connection limit of 6", LIMIT_PROPERTY);
        assertRefused("{\"action\":\"pin\",\"strategy\":\"multi\",\"connections\":7}", 400, "7 is above the connection limit of 6",
                LIMIT_PROPERTY);
        assertRefused("{\"action\":\"trial\",\"strategy\":\"pooled\",\"connections\":100000}", 400,
                "100000 is above the connection limit of 6", LIMIT_PROPERTY);
    }

    @Test
    void anUnknownTemplateShouldBe404NamingTheTemplates() throws Exception {
        HttpResponse<String> response = post(app, "nope", "{\"action\":\"pin\",\"strategy\":\"single\"}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("\"error\"").contains("No template named 'nope'").contains("redis");
        assertThat(post(app, "nope", "{\"action\":\"unpin\"}").statusCode()).isEqualTo(404);
    }

    @Test
    void aValidPinAtTheLimitShouldBe200AndPinIt() throws Exception {
        // The control for the tests above: the same request within bounds is carried out.
        HttpResponse<String> response = post(app, "redis", "{\"action\":\"pin\",\"strategy\":\"multi\",\"connections\":6}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).contains("\"pinned\":\"MULTI(6, ROUND_ROBIN)\"").contains("\"strategy\":\"MULTI(6, ROUND_ROBIN)\"");
        assertThat(switcher(app).state().pinned()).isEqualTo(switcher(app).state().active());
    }

    @Test
    void aPinWhoseStrategyTheServerRefusesShouldBe503AndChangeNothing() throws Exception {
        try (RedisServer small = RedisServer.withArguments("--maxclients", "6")) {
            small.start();
            try (ConfigurableApplicationContext refusing = start("redis://" + small.address(), LIMIT_PROPERTY + "=64")) {
                StrategySwitcher switcher = switcher(refusing);
                AdaptiveState before = switcher.state();
                int baseline = small.connectedClients(); // also opens the admin connection while there is room
                long receivedBefore = stat(small, "total_connections_received");
                long rejectedBefore = stat(small, "rejected_connections");

                HttpResponse<String> response = post(refusing, "redis", "{\"action\":\"pin\",\"strategy\":\"multi\",\"connections\":20}");

                assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
                // Counted by the server: the pin stopped at the first refusal, having taken only the room there was
                // (maxclients 6, less the admin connection and the baseline).
                assertThat(stat(small, "rejected_connections") - rejectedBefore).as("connections the server refused")
                        .isEqualTo(1);
                assertThat(stat(small, "total_connections_received") - receivedBefore).as("connections the server accepted")
                        .isEqualTo(6 - 1 - baseline);
                assertThat(response.body()).contains("\"error\"").contains("Could not open MULTI(20, ROUND_ROBIN)")
                        .contains("nothing changed").contains("nothing is pinned");
                AdaptiveState after = switcher.state();
                assertThat(after.pinned()).as("not pinned").isNull();
                assertThat(after.mode()).isEqualTo(before.mode());
                assertThat(after.active()).as("the incumbent still serves").isEqualTo(before.active());
                assertThat(post(refusing, "redis", "{\"action\":\"unpin\"}").body()).doesNotContain("\"pinned\":\"");
                await("the connections the failed pin opened are closed on the server").atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertThat(small.connectedClients()).isEqualTo(baseline));
            }
        }
    }

    /** Posts a refused request and checks its status, its reason and that the server saw no new connection. */
    private void assertRefused(String json, int status, String reason, String allowed) throws Exception {
        StrategySwitcher switcher = switcher(app);
        AdaptiveState before = switcher.state();
        int clients = redis.server().connectedClients();
        long received = totalConnectionsReceived();

        HttpResponse<String> response = post(app, "redis", json);

        assertThat(response.statusCode()).as(json + " -> " + response.body()).isEqualTo(status);
        assertThat(response.body()).as(json).startsWith("{\"error\":").contains(reason).contains(allowed);
        assertThat(totalConnectionsReceived()).as("connections the server accepted during " + json).isEqualTo(received);
        assertThat(redis.server().connectedClients()).as("connections open after " + json).isEqualTo(clients);
        AdaptiveState after = switcher.state();
        assertThat(after.pinned()).isEqualTo(before.pinned());
        assertThat(after.active()).isEqualTo(before.active());
        assertThat(after.history()).isEqualTo(before.history());
    }

    /** A counter of {@code INFO stats}, where the server counts every connection it accepts or refuses. */
    private static long stat(RedisServer server, String field) {
        return Long.parseLong(server.info("stats", field));
    }

    private static long totalConnectionsReceived() {
        return Long.parseLong(redis.server().info("stats", "total_connections_received"));
    }

    private static StrategySwitcher switcher(ConfigurableApplicationContext context) {
        return context.getBean(AdaptiveCacheSwitchers.class).get("redis");
    }

    private static HttpResponse<String> post(ConfigurableApplicationContext context, String template, String json) throws Exception {
        String port = context.getEnvironment().getProperty("local.server.port");
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/adaptivecache/" + template))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApplication {
    }
}
