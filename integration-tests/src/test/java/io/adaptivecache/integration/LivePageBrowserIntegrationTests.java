package io.adaptivecache.integration;

import java.io.File;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.sample.SampleApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's live page in headless Chromium: it charts a short load, and a switch forced from
 * the page appears as a marker with its reason; opened after a load and a switch, it draws the
 * windows the server kept, with the figures, strategies and switch times the endpoint reports.
 * Saves {@code target/live-page.png} and {@code target/live-page-history.png}.
 */
// Starts on MULTI rather than the sample's demo POOLED: these tests are about the endpoint and the
// page, and a 200 ms pool wait on a loaded machine would count as a load error before any switch.
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "adaptive-cache.redis.adaptive.initial=multi")
class LivePageBrowserIntegrationTests extends RealCacheServers {

    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");

    @Autowired
    private Environment environment;

    @Test
    void thePageShouldChartTheLoadAndMarkAForcedSwitch(@TempDir Path profile) throws Exception {
        WebDriver browser = openBrowser(profile);
        try {
            browser.get("http://127.0.0.1:" + this.environment.getProperty("local.server.port") + "/");
            setValue(browser, "load-threads", "16");
            setValue(browser, "load-seconds", "6");
            browser.findElement(By.id("load-start")).click();

            await("the chart to show data").atMost(Duration.ofSeconds(30)).until(() -> {
                WebElement card = browser.findElement(By.id("template-redis"));
                return Integer.parseInt(card.getDomAttribute("data-points")) >= 3
                        && card.findElement(By.className("badges")).getText().contains("calls/s");
            });
            new Select(browser.findElement(By.id("pin-strategy"))).selectByVisibleText("multi");
            setValue(browser, "pin-connections", "3");
            browser.findElement(By.id("trial")).click();

            await("a switch marker").atMost(Duration.ofSeconds(30)).until(() -> browser
                    .findElements(By.cssSelector("#template-redis .switches li")).stream()
                    .anyMatch(item -> item.getText().contains("OPERATOR") && item.getText().contains("MULTI(3")));
            await("the load to finish").atMost(Duration.ofSeconds(30))
                    .until(() -> browser.findElement(By.id("load-status")).getText().startsWith("last run"));
            assertThat(browser.findElement(By.id("load-status")).getText()).contains(" 0 errors");

            // Not only points: each one drawn is a window the endpoint reports, with its throughput and latencies.
            Map<String, Object> page = chartData(browser, "redis");
            SampleHttp http = new SampleHttp(this.environment);
            List<Window> server = windows(history(http));
            List<List<Object>> rate = points(page, "rate");
            List<List<Object>> p99 = points(page, "p99");
            assertThat(rate).anyMatch(point -> number(point.get(1)) > 0);
            for (int i = 0; i < rate.size(); i++) {
                long at = ((Number) rate.get(i).get(0)).longValue();
                Window window = server.stream().filter(each -> each.at() == at).findFirst().orElse(null);
                assertThat(window).as("the endpoint's window at %s", Instant.ofEpochMilli(at)).isNotNull();
                assertThat(number(rate.get(i).get(1))).isEqualTo((double) window.throughput());
                assertThat(number(p99.get(i).get(1))).isEqualTo(window.p99Millis());
            }
            JsonNode trial = null;
            for (JsonNode event : JSON.readTree(http.send("GET", "/actuator/adaptivecache/redis", null).body()).get("recentSwitches")) {
                if (event.get("to").asString().startsWith("MULTI(3")) {
                    trial = event;
                }
            }
            assertThat(trial).isNotNull();
            long trialAt = Instant.parse(trial.get("at").asString()).toEpochMilli();
            assertThat(points(page, "markers")).anyMatch(marker -> ((Number) marker.get(0)).longValue() == trialAt);

            Path screenshot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
            Files.createDirectories(Path.of("target"));
            Files.copy(screenshot, Path.of("target", "live-page.png"), StandardCopyOption.REPLACE_EXISTING);
        }
        finally {
            browser.quit();
        }
    }

    /**
     * An operator who arrives after the incident: a load runs and the strategy is switched while no
     * page is open. The page, opened afterwards, must draw those windows from the server's history
     * (the same times, throughput and latencies as {@code /actuator/adaptivecache/redis/history}),
     * colour the band of each window by the strategy that served it and put the switch marker at
     * the switch's time. The history itself is checked against redis-server's own command counts.
     */
    @Test
    void aPageOpenedAfterALoadAndASwitchShouldDrawTheServersHistoryOfThem(@TempDir Path profile) throws Exception {
        SampleHttp http = new SampleHttp(this.environment);
        // Pinned, so that the policy (which another test's load may have set going) changes nothing on its own.
        HttpResponse<String> multi = http.send("POST", "/actuator/adaptivecache/redis",
                "{\"action\":\"pin\",\"strategy\":\"multi\",\"connections\":2}");
        assertThat(multi.statusCode()).as(multi.body()).isEqualTo(200);
        long commandsBefore = redisGetsAndSets();
        Instant loadStarted = Instant.now();
        CompletableFuture<HttpResponse<String>> load = CompletableFuture.supplyAsync(() -> {
            try {
                return http.send("POST", "/load?backend=redis&threads=8&duration=PT5S&valueSize=100", null);
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        // Two busy windows on the first strategy, then a switch to one of another type (so that its band's colour differs).
        await("two windows of load").atMost(Duration.ofSeconds(20)).until(() -> windows(history(http)).stream()
                .filter(window -> window.at() > loadStarted.toEpochMilli() && window.calls() > 0).count() >= 2);
        HttpResponse<String> pin = http.send("POST", "/actuator/adaptivecache/redis", "{\"action\":\"pin\",\"strategy\":\"single\"}");
        assertThat(pin.statusCode()).as(pin.body()).isEqualTo(200);
        try {
            HttpResponse<String> report = load.get(60, TimeUnit.SECONDS);
            assertThat(report.statusCode()).as(report.body()).isEqualTo(200);
            assertThat(JSON.readTree(report.body()).get("errors").asLong()).as(report.body()).isZero();
            long loadEnded = System.currentTimeMillis();
            // A window that began after the load ended and saw no call: every call of the load is in a window before it.
            await("an idle window after the load").atMost(Duration.ofSeconds(20)).until(() -> windows(history(http)).stream()
                    .anyMatch(window -> window.at() - window.seconds() * 1000 > loadEnded && window.calls() == 0));
            long commandsAfter = redisGetsAndSets();
            List<Window> kept = windows(history(http));
            long callsInWindows = kept.stream().filter(window -> window.at() > loadStarted.toEpochMilli()).mapToLong(Window::calls).sum();
            assertThat(callsInWindows).as("calls in the kept windows since the load started, against redis-server's GET and SET count")
                    .isEqualTo(commandsAfter - commandsBefore).isPositive();

            long pageOpened = System.currentTimeMillis();
            WebDriver browser = openBrowser(profile);
            try {
                browser.get("http://127.0.0.1:" + this.environment.getProperty("local.server.port") + "/");
                // data-history is set once the history is drawn, data-points once the first poll's window and markers are.
                await("the history drawn").atMost(Duration.ofSeconds(30)).until(() -> {
                    WebElement card = browser.findElement(By.id("template-redis"));
                    return card.getDomAttribute("data-history") != null && card.getDomAttribute("data-points") != null;
                });
                Map<String, Object> page = chartData(browser, "redis");
                JsonNode template = JSON.readTree(http.send("GET", "/actuator/adaptivecache/redis", null).body());
                List<Window> server = windows(history(http));

                List<List<Object>> rate = points(page, "rate");
                List<List<Object>> p50 = points(page, "p50");
                List<List<Object>> p99 = points(page, "p99");
                List<List<Object>> band = points(page, "band");
                long firstKept = server.get(0).at();
                long lastDrawn = ((Number) rate.get(rate.size() - 1).get(0)).longValue();
                // The windows the server still keeps, up to the newest the page drew, each drawn once with the server's figures.
                List<Window> expected = server.stream().filter(window -> window.at() <= lastDrawn).toList();
                List<List<Object>> drawn = rate.stream().filter(point -> ((Number) point.get(0)).longValue() >= firstKept).toList();
                assertThat(drawn).extracting(point -> ((Number) point.get(0)).longValue())
                        .containsExactlyElementsOf(expected.stream().map(Window::at).toList());
                assertThat(expected).as("windows from before the page was opened, the load's among them")
                        .anyMatch(window -> window.at() < pageOpened && window.at() > loadStarted.toEpochMilli() && window.calls() > 0);
                int offset = rate.size() - drawn.size();
                for (int i = 0; i < expected.size(); i++) {
                    Window window = expected.get(i);
                    String at = Instant.ofEpochMilli(window.at()).toString();
                    assertThat(number(rate.get(offset + i).get(1))).as("throughput at %s", at).isEqualTo((double) window.throughput());
                    assertThat(number(p50.get(offset + i).get(1))).as("p50 at %s", at).isEqualTo(window.p50Millis());
                    assertThat(number(p99.get(offset + i).get(1))).as("p99 at %s", at).isEqualTo(window.p99Millis());
                    assertThat(number(band.get(offset + i).get(0))).as("band point at %s", at).isEqualTo((double) window.at());
                    assertThat(number(band.get(offset + i).get(1))).as("band N at %s", at).isEqualTo((double) window.connections());
                    assertThat(band.get(offset + i).get(2)).as("band strategy at %s", at).isEqualTo(window.strategyType());
                }

                // Each window's strategy is the one the last switch before its end put live; the switch shows as a marker at its time.
                List<JsonNode> switches = new ArrayList<>();
                template.get("recentSwitches").forEach(switches::add);
                JsonNode pinned = switches.stream().filter(event -> event.get("to").asString().equals("SINGLE")
                        && event.get("reason").asString().equals("OPERATOR")).reduce((first, second) -> second).orElseThrow();
                long pinnedAt = Instant.parse(pinned.get("at").asString()).toEpochMilli();
                assertThat(pinnedAt).isBetween(loadStarted.toEpochMilli(), pageOpened);
                assertThat(expected).as("windows on either side of the switch")
                        .anyMatch(window -> window.at() < pinnedAt && window.at() > loadStarted.toEpochMilli())
                        .anyMatch(window -> window.at() > pinnedAt && window.at() < pageOpened);
                for (Window window : expected) {
                    String strategy = strategyAt(switches, window.at());
                    if (strategy != null) {
                        assertThat(window.strategy()).as("strategy of the window at %s", Instant.ofEpochMilli(window.at()))
                                .isEqualTo(strategy);
                    }
                }
                List<List<Object>> markers = points(page, "markers");
                for (JsonNode event : switches) {
                    long at = Instant.parse(event.get("at").asString()).toEpochMilli();
                    assertThat(markers).as("a marker at the switch at %s", event.get("at").asString())
                            .anyMatch(marker -> ((Number) marker.get(0)).longValue() == at
                                    && ((String) marker.get(1)).contains(event.get("reason").asString() + ": " + event.get("from").asString()
                                            + " -> " + event.get("to").asString()));
                }
                assertThat(markers).hasSize(switches.size());

                // What the band shows: the colour drawn over each window is that of the type of the strategy that served it.
                @SuppressWarnings("unchecked")
                List<List<Object>> pixels = (List<List<Object>>) ((JavascriptExecutor) browser).executeScript(BAND_PIXELS, "redis");
                @SuppressWarnings("unchecked")
                Map<String, String> colours = (Map<String, String>) ((JavascriptExecutor) browser).executeScript("return STRATEGY_COLORS;");
                int checked = 0;
                for (List<Object> pixel : pixels) {
                    long at = ((Number) pixel.get(0)).longValue();
                    Window window = expected.stream().filter(each -> each.at() == at).findFirst().orElse(null);
                    if (window == null) {
                        continue; // a live window appended since the history was read
                    }
                    assertThat(number(pixel.get(4))).as("band drawn over the window at %s", Instant.ofEpochMilli(at)).isPositive();
                    assertThat(nearest(colours, pixel)).as("band colour over the window at %s: %s", Instant.ofEpochMilli(at), pixel)
                            .isEqualTo(window.strategyType());
                    checked++;
                }
                assertThat(checked).isGreaterThanOrEqualTo(expected.size() - 1);
                assertThat(pixels).anyMatch(pixel -> ((Number) pixel.get(0)).longValue() < pinnedAt && "MULTI".equals(nearest(colours, pixel)))
                        .anyMatch(pixel -> ((Number) pixel.get(0)).longValue() > pinnedAt && "SINGLE".equals(nearest(colours, pixel)));

                Path screenshot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
                Files.createDirectories(Path.of("target"));
                Files.copy(screenshot, Path.of("target", "live-page-history.png"), StandardCopyOption.REPLACE_EXISTING);
            }
            finally {
                browser.quit();
            }
        }
        finally {
            http.send("POST", "/actuator/adaptivecache/redis", "{\"action\":\"unpin\"}");
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The page's chart data for one template, read from the chart itself: [x, y(, strategy)] per point, per dataset. */
    private static final String CHART_DATA = """
            const chart = window.liveCharts[arguments[0]];
            const [rate, p50, p99, band, markers] = chart.data.datasets;
            const xy = data => data.map(point => [point.x, point.y]);
            return { rate: xy(rate.data), p50: xy(p50.data), p99: xy(p99.data),
              band: band.data.map(point => [point.x, point.y, point.strategy]),
              markers: markers.data.map(point => [point.x, point.label]) };
            """;

    /**
     * The colour the band is drawn with over each window, read from the canvas: the other datasets
     * and the grid are hidden for the reading (one synchronous redraw each way, so no poll interleaves),
     * and each window is read halfway along it, halfway up its N. [window end, r, g, b, alpha] per window.
     */
    private static final String BAND_PIXELS = """
            const chart = window.liveCharts[arguments[0]];
            const band = chart.data.datasets[3].data;
            const others = [0, 1, 2, 4];
            const grids = ['x', 'rate'].map(id => chart.options.scales[id].grid);
            others.forEach(i => chart.setDatasetVisibility(i, false));
            grids.forEach(grid => grid.display = false);
            chart.update('none');
            const ratio = chart.currentDevicePixelRatio;
            const pixels = [];
            for (let i = 1; i < band.length; i++) {
              const x = chart.scales.x.getPixelForValue((band[i - 1].x + band[i].x) / 2);
              const y = chart.scales.connections.getPixelForValue(band[i].y / 2);
              const rgba = chart.ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
              pixels.push([band[i].x, rgba[0], rgba[1], rgba[2], rgba[3]]);
            }
            others.forEach(i => chart.setDatasetVisibility(i, true));
            grids.forEach(grid => grid.display = true);
            chart.update('none');
            return pixels;
            """;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> chartData(WebDriver browser, String template) {
        return (Map<String, Object>) ((JavascriptExecutor) browser).executeScript(CHART_DATA, template);
    }

    @SuppressWarnings("unchecked")
    private static List<List<Object>> points(Map<String, Object> page, String dataset) {
        return (List<List<Object>>) page.get(dataset);
    }

    private static double number(Object value) {
        return ((Number) value).doubleValue();
    }

    /** The strategy type whose colour is nearest to a pixel's. */
    private static String nearest(Map<String, String> colours, List<Object> pixel) {
        String best = null;
        double bestDistance = Double.MAX_VALUE;
        for (Map.Entry<String, String> colour : colours.entrySet()) {
            int rgb = Integer.parseInt(colour.getValue().substring(1), 16);
            double distance = Math.pow(number(pixel.get(1)) - (rgb >> 16), 2) + Math.pow(number(pixel.get(2)) - ((rgb >> 8) & 0xff), 2)
                    + Math.pow(number(pixel.get(3)) - (rgb & 0xff), 2);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = colour.getKey();
            }
        }
        return best;
    }

    /**
     * The strategy live at the end of a window: the last switch's before it, or the first one's
     * strategy before it; {@code null} when a switch falls in the same millisecond (either is right).
     */
    private static String strategyAt(List<JsonNode> switches, long windowEnd) {
        String strategy = switches.isEmpty() ? null : switches.get(0).get("from").asString();
        for (JsonNode event : switches) {
            long at = Instant.parse(event.get("at").asString()).toEpochMilli();
            if (at == windowEnd) {
                return null;
            }
            if (at < windowEnd && event.get("outcome").asString().equals("SWITCHED")) {
                strategy = event.get("to").asString();
            }
        }
        return strategy;
    }

    private static JsonNode history(SampleHttp http) throws Exception {
        HttpResponse<String> response = http.send("GET", "/actuator/adaptivecache/redis/history", null);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static List<Window> windows(JsonNode history) {
        List<Window> windows = new ArrayList<>();
        history.get("windows").forEach(window -> windows.add(new Window(Instant.parse(window.get("at").asString()).toEpochMilli(),
                window.get("seconds").asDouble(), window.get("strategy").asString(), window.get("strategyType").asString(),
                window.get("connections").asInt(), window.get("calls").asLong(), window.get("throughput").asLong(),
                window.get("p50Millis").asDouble(), window.get("p99Millis").asDouble())));
        return windows;
    }

    /** GET and SET commands redis-server has run: the load's calls, counted by the server. */
    private static long redisGetsAndSets() {
        return commandCalls("cmdstat_get") + commandCalls("cmdstat_set");
    }

    private static long commandCalls(String command) {
        String stats;
        try {
            stats = redis.server().info("commandstats", command);
        }
        catch (IllegalStateException ex) {
            return 0; // never run yet
        }
        for (String field : stats.split(",")) {
            if (field.startsWith("calls=")) {
                return Long.parseLong(field.substring("calls=".length()));
            }
        }
        throw new IllegalStateException("No calls in " + command + ": " + stats);
    }

    private record Window(long at, double seconds, String strategy, String strategyType, int connections, long calls, long throughput,
            double p50Millis, double p99Millis) {
    }

    static WebDriver openBrowser(Path profile) {
        assertThat(CHROMIUM).as("headless Chromium; install it with: sudo apt-get install -y chromium chromium-driver").exists();
        assertThat(CHROMEDRIVER).as("ChromeDriver; install it with: sudo apt-get install -y chromium-driver").exists();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    private static void setValue(WebDriver browser, String id, String value) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(value);
    }
}
