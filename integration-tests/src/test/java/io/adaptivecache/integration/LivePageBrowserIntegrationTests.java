package io.adaptivecache.integration;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import io.adaptivecache.sample.SampleApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's live page in headless Chromium: it charts a short load, and a switch forced from
 * the page appears as a marker with its reason. Saves {@code target/live-page.png}.
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
        assertThat(CHROMIUM).as("headless Chromium; install it with: sudo apt-get install -y chromium chromium-driver").exists();
        assertThat(CHROMEDRIVER).as("ChromeDriver; install it with: sudo apt-get install -y chromium-driver").exists();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER).usingAnyFreePort().build();
        WebDriver browser = new ChromeDriver(service, options);
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

            Path screenshot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
            Files.createDirectories(Path.of("target"));
            Files.copy(screenshot, Path.of("target", "live-page.png"), StandardCopyOption.REPLACE_EXISTING);
        }
        finally {
            browser.quit();
        }
    }

    private static void setValue(WebDriver browser, String id, String value) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(value);
    }
}
