package io.adaptivecache.integration;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.adaptivecache.sample.SampleApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a new user sees first: the sample's demo load (on here, shorter and smaller than the
 * sample's default) gives the page's charts windows with calls and the policy a verdict within a
 * few windows of opening; and a load that exhausts a pool is explained on the page as the pool's
 * collapse, not left as a bare error count.
 */
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "sample.demo-load.enabled=true", "sample.demo-load.threads=4", "sample.demo-load.duration=12s" })
class LivePageFirstScreenIntegrationTests extends RealCacheServers {

    @Autowired
    private Environment environment;

    @Test
    void thePageShouldOpenOnTheDemoLoadAndExplainAPoolsErrorsAsItsCollapse(@TempDir Path profile) throws Exception {
        WebDriver browser = LivePageBrowserIntegrationTests.openBrowser(profile);
        SampleHttp http = new SampleHttp(this.environment);
        try {
            browser.get("http://127.0.0.1:" + this.environment.getProperty("local.server.port") + "/");
            // Within a few one-second windows, both charts draw windows with calls, and the policy has judged one.
            for (String template : List.of("redis", "memcached")) {
                await("windows with calls on " + template).atMost(Duration.ofSeconds(20))
                        .until(() -> busyPoints(browser, template) >= 2);
            }
            await("a verdict on redis").atMost(Duration.ofSeconds(20)).until(() -> {
                String decision = browser.findElement(By.cssSelector("#template-redis .decision")).getText();
                return decision.startsWith("last decision: ") && !decision.contains("INSUFFICIENT_DATA");
            });
            assertThat(browser.findElement(By.id("load-status")).getText()).as("what runs, and that the sample started it")
                    .matches("(running demo: 4 callers on redis \\+ memcached for 12 s.*sample.demo-load.enabled=false.*"
                            + "|last run \\(demo\\).*)");
            await("the demo to end").atMost(Duration.ofSeconds(30))
                    .until(() -> browser.findElement(By.id("load-status")).getText().startsWith("last run (demo)"));

            // One pooled connection, 10 ms to wait for it, and the server paused for 300 ms while four callers call:
            // the caller holding the connection waits for the server, every other gives up after max-wait, which is
            // the pool's collapse the page must name. (The sample's delaying proxy is not in this test's path: the
            // test's own server address takes precedence over the sample's proxied one.)
            assertThat(http.send("POST", "/strategies/redis?type=POOLED&maxTotal=1&maxWait=PT0.01S", null).statusCode()).isEqualTo(200);
            CompletableFuture<HttpResponse<String>> loading = CompletableFuture.supplyAsync(() -> {
                try {
                    return http.send("POST", "/load?backend=redis&threads=4&duration=PT2S&valueSize=100", null);
                }
                catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            });
            await("the load to call redis").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> redisBorrows(http.send("GET", "/strategies", null).body()) > 0);
            redis.server().freeze();
            try {
                await("the pause").pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
            }
            finally {
                redis.server().thaw();
            }
            HttpResponse<String> load = loading.get(30, TimeUnit.SECONDS);
            assertThat(load.statusCode()).as(load.body()).isEqualTo(200);
            assertThat(load.body()).contains("\"type\":\"CachePoolExhaustedException\"").contains("\"backend\":\"redis\"");
            await("the page to explain the errors").atMost(Duration.ofSeconds(10)).until(() -> {
                WebElement report = browser.findElement(By.id("load-report"));
                return report.isDisplayed() && report.getText().contains("CachePoolExhaustedException on redis");
            });
            String explanation = browser.findElement(By.id("load-report")).getText();
            assertThat(explanation).contains("the pool collapsed under this many callers")
                    .contains("callers queued for one and gave up after the pool's max-wait");
            assertThat(browser.findElement(By.id("load-status")).getText()).startsWith("last run: ").contains("(why: below)");
        }
        finally {
            browser.quit();
            http.send("POST", "/strategies/redis?type=MULTI", null);
        }
    }

    /** Points on a template's throughput line with calls in their window. */
    @SuppressWarnings("unchecked")
    private static long busyPoints(WebDriver browser, String template) {
        List<Map<String, Object>> rate = (List<Map<String, Object>>) ((JavascriptExecutor) browser).executeScript(
                "const chart = window.liveCharts[arguments[0]]; return chart ? chart.data.datasets[0].data : [];", template);
        return rate.stream().filter(point -> ((Number) point.get("y")).doubleValue() > 0).count();
    }

    private static long redisBorrows(String strategies) {
        Matcher borrows = Pattern.compile("\"redis\":\\{[^}]*\"borrows\":(\\d+)").matcher(strategies);
        return borrows.find() ? Long.parseLong(borrows.group(1)) : 0;
    }
}
