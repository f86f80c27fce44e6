package io.adaptivecache.benchmarks.http;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.adaptivecache.testservers.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An items application started by the harness in a JVM of its own, on a real Redis: it reports
 * its port, fills its cache, tells its state and stops when closed.
 */
class AppProcessIntegrationTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void startsFillsReportsAndStops(@TempDir Path out) throws Exception {
        String[] address = redis.server().address().split(":");
        Path log = out.resolve("jvm").resolve("spring-defaults_2.log");
        AppProcess app = AppProcess.start("spring-defaults#2", address[0], Integer.parseInt(address[1]), "256m", log,
                Duration.ofMinutes(2));
        try {
            assertThat(app.variant().id()).isEqualTo("spring-defaults");
            assertThat(app.port()).isPositive();

            app.fill(300, 4);
            AppState filled = app.state(false);
            app.fill(300, 4);
            AppState again = app.state(true);

            assertThat(filled.loads()).as("every id made once").isEqualTo(300);
            assertThat(again.loads()).as("the second pass served from the cache").isEqualTo(300);
            assertThat(again.transport()).as("Boot's variant on NIO, whatever the class path offers").isEqualTo("nio");
            assertThat(again.strategy()).isEqualTo("-");
            assertThat(again.compileMillis()).isPositive();
            assertThat(app.cpuTime()).isPositive();
        }
        finally {
            app.close();
        }
        assertThat(Files.exists(log)).isTrue();
    }
}
