package io.adaptivecache.benchmarks;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.targets.Targets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the packaged benchmark in quick mode, as a user would ({@code java -jar ... --quick}),
 * against servers it starts itself, and checks that it measured every target on every workload
 * and wrote its table, details and charts. No figure is asserted: CI machines are noisy.
 */
class QuickBenchmarkIntegrationTests {

    private static final Path JAR = Path.of("target", "adaptive-cache-benchmarks.jar");

    @Test
    void quickModeMeasuresEveryTargetAndWritesTheReport(@TempDir Path out) throws Exception {
        assertThat(JAR).as("the packaged benchmark (mvn package runs before the integration tests)").exists();
        String java = ProcessHandle.current().info().command().orElse("java");
        Path log = out.resolve("benchmark.log");
        Process process = new ProcessBuilder(java, "-jar", JAR.toString(), "--quick", "--out", out.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = process.waitFor(8, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(finished).as("the quick run finishes within 8 minutes; its output:%n%s", output).isTrue();
        assertThat(process.exitValue()).as(output).isZero();

        List<String> cells = Files.readAllLines(out.resolve("cells.csv"), StandardCharsets.UTF_8);
        // Every Redis and memcached target (the default backends), at 1 and 50 threads, on loopback and delayed,
        // 100-byte values, one round.
        Duration any = Duration.ofSeconds(1);
        long targets = Targets.all(2, any, any, any, any).stream().filter(target -> target.backend() != Backend.REDIS_CLUSTER)
                .count();
        assertThat(targets).as("the Redis and memcached catalog").isGreaterThanOrEqualTo(22);
        assertThat(cells).hasSize(1 + (int) targets * 2 * 2);
        for (String cell : cells.subList(1, cells.size())) {
            String[] columns = cell.split(",");
            assertThat(Long.parseLong(columns[6])).as("measured calls of %s", cell).isPositive();
        }
        String results = Files.readString(out.resolve("results.md"), StandardCharsets.UTF_8);
        assertThat(results).contains("## Our overhead", "ours-multi / lettuce-multi", "ours-multi / spy-array",
                "## Against what users would pick instead", "How the adaptive mode settled", "| `jedis-pool-200` |",
                "| `xmemcached` |", "redis-loopback-100B-throughput.png", "memcached-delayed-100B-p99.png");
        assertThat(Files.readString(out.resolve("details.md"), StandardCharsets.UTF_8)).contains("| `sdr-pool-8` | 50 |");
        for (String chart : List.of("redis-loopback-100B-throughput.png", "redis-delayed-100B-p99.png",
                "memcached-loopback-100B-throughput.png", "memcached-delayed-100B-p99.png")) {
            assertThat(readImage(out.resolve(chart)).getWidth()).as(chart).isEqualTo(1000);
        }
    }

    private static BufferedImage readImage(Path file) throws IOException {
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image).as("%s is a PNG", file).isNotNull();
        return image;
    }
}
