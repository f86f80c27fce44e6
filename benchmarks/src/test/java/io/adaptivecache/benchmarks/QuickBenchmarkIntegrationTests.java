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
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.pairs.Slice;
import io.adaptivecache.benchmarks.pairs.SliceLog;
import io.adaptivecache.benchmarks.report.CsvLog;
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
        // Shorter cells than --quick's own, on loopback and at 50 callers only: this proves the harness reaches every
        // target, not a figure (the verdict and phase runs below cover the delayed network and other caller counts).
        runJar(out, 8, "--quick", "--networks", "loopback", "--threads", "50", "--warm-up", "100ms", "--measure", "250ms", "--out",
                out.toString());

        List<String> cells = Files.readAllLines(out.resolve("cells.csv"), StandardCharsets.UTF_8);
        // Every Redis and memcached target (the default backends), at 50 threads, on loopback, 100-byte values, one round.
        Duration any = Duration.ofSeconds(1);
        long targets = Targets.all(2, any, any, any, any).stream().filter(target -> target.backend() != Backend.REDIS_CLUSTER)
                .count();
        assertThat(targets).as("the Redis and memcached catalog").isGreaterThanOrEqualTo(22);
        assertThat(cells).hasSize(1 + (int) targets);
        for (String cell : cells.subList(1, cells.size())) {
            String[] columns = cell.split(",");
            assertThat(Long.parseLong(columns[6])).as("measured calls of %s", cell).isPositive();
        }
        String results = Files.readString(out.resolve("results.md"), StandardCharsets.UTF_8);
        assertThat(results).contains("## Our overhead", "ours-multi / lettuce-multi", "ours-multi / spy-array",
                "## Against what users would pick instead", "How the adaptive mode settled", "| `jedis-pool-200` |",
                "| `xmemcached` |", "redis-loopback-100B-throughput.png", "memcached-loopback-100B-p99.png");
        assertThat(Files.readString(out.resolve("details.md"), StandardCharsets.UTF_8)).contains("| `sdr-pool-8` | 50 |");
        // Commands per socket write over each cell's window: our Redis templates count them, a peer and memcached do not.
        List<CellResult> measured = CsvLog.read(out.resolve("cells.csv"));
        assertThat(cell(measured, Backend.REDIS, "ours-multi").commandsPerWrite()).isGreaterThanOrEqualTo(1.0);
        assertThat(cell(measured, Backend.REDIS, "sdr-shared").redisWrites()).isNull();
        assertThat(cell(measured, Backend.MEMCACHED, "ours-multi").redisWrites()).isNull();
        String redisTable = results.substring(results.indexOf("### Redis · loopback · 100 B"), results.indexOf("### memcached"));
        assertThat(redisTable).contains("| target | 50 thr ops/s | 50 thr cmds/write | 50 thr p99 |");
        String perWrite = row(redisTable, "ours-multi")[3].trim();
        assertThat(perWrite).as("ours-multi's cmds/write").matches("\\d+\\.\\d{2}");
        assertThat(Double.parseDouble(perWrite)).as("ours-multi's cmds/write").isGreaterThanOrEqualTo(1.0);
        assertThat(row(redisTable, "sdr-shared")[3].trim()).as("sdr-shared's cmds/write").isEqualTo("–");
        for (String chart : List.of("redis-loopback-100B-throughput.png", "redis-loopback-100B-p99.png",
                "memcached-loopback-100B-throughput.png", "memcached-loopback-100B-p99.png")) {
            assertThat(readImage(out.resolve(chart)).getWidth()).as(chart).isEqualTo(1000);
        }
    }

    @Test
    void quickVerdictRunComparesInPairsWithAnAAControlAndGivesEveryGoalCellAVerdict(@TempDir Path out) throws Exception {
        String output = runJar(out, 5, "--quick", "--goals", "quick", "--out", out.toString());

        List<Slice> slices = SliceLog.read(out.resolve(SliceLog.FILE));
        // Four target JVMs (ours, the peer, the peer's A/A twin, our near cache), 1 and 50 callers, loopback and delayed, at
        // least 4 cycles each.
        assertThat(slices).extracting(Slice::target).containsOnly("ours-jedis-pooled-8", "jedis-pool-8", "jedis-pool-8#2",
                "ours-near-adaptive-jedis");
        assertThat(slices).extracting(Slice::workload).extracting(workload -> workload.threads() + "/" + workload.network())
                .containsOnly("1/LOOPBACK", "50/LOOPBACK", "1/DELAYED", "50/DELAYED");
        assertThat(slices).hasSizeGreaterThanOrEqualTo(4 * 4 * 4);
        assertThat(slices).allSatisfy(slice -> assertThat(slice.operations()).as("%s", slice).isPositive());
        assertThat(slices).as("each cycle runs each target once").allSatisfy(slice -> assertThat(slices.stream()
                .filter(other -> other.workload().equals(slice.workload()) && other.cycle() == slice.cycle()).count()).isEqualTo(4));
        // Only the target with a local tier measures staleness, and its probe's writes reach the file in every slice.
        assertThat(slices).allSatisfy(slice -> assertThat(slice.staleness().measured())
                .isEqualTo(slice.target().equals("ours-near-adaptive-jedis")));
        assertThat(slices.stream().filter(slice -> slice.staleness().measured()))
                .allSatisfy(slice -> assertThat(slice.staleness().histogram().getTotalCount()).as("%s", slice).isPositive());

        String verdicts = Files.readString(out.resolve("verdicts.md"), StandardCharsets.UTF_8);
        assertThat(verdicts).contains("A/A: jedis-pool-8 ÷ jedis-pool-8 in a second JVM", "## The machine during the slices",
                "client CPU per call", "verdicts-redis-loopback-100B.png");
        // Every goal cell ends in a verdict word (no figure is asserted).
        assertThat(verdicts.lines().filter(line -> line.startsWith("| ours-jedis-pooled-8 ÷ jedis-pool-8 |")).toList())
                .as("a goal table per network").hasSize(2)
                .allSatisfy(line -> assertThat(line).containsPattern("(met|missed|undecided)\\*{1,2} \\|.*(met|missed|undecided)\\*{1,2} \\|$"));
        assertThat(verdicts.lines().filter(line -> line.startsWith("| A/A")).toList()).hasSize(2)
                .allSatisfy(line -> assertThat(line).containsPattern("(holds|FAILS|too few pairs)"));
        for (String chart : List.of("verdicts-redis-loopback-100B.png", "verdicts-redis-delayed-100B.png")) {
            assertThat(readImage(out.resolve(chart)).getWidth()).as(chart).isGreaterThanOrEqualTo(600);
        }
        assertThat(verdicts).contains("## Staleness under load", "| ours-near-adaptive-jedis | Redis · loopback · 100 B · 1 caller |");
        // The verdicts can be recomputed from the slices alone.
        assertThat(output).contains("Results: ");
    }

    @Test
    void quickPhaseRunStepsTheLoadUnderEveryTargetAndDrawsItsTimeline(@TempDir Path out) throws Exception {
        runJar(out, 7, "--quick", "--phases", "callers,rtt,surge", "--phase-length", "500ms", "--backends", "redis", "--out",
                out.toString());

        List<String> phases = Files.readAllLines(out.resolve("phases.csv"), StandardCharsets.UTF_8);
        // Nine Redis targets (the Boot-built default among them), one cycle, five caller phases and three round-trip phases
        // each; the surge's two phases for the Boot-built default and its fixed reference.
        assertThat(phases).hasSize(1 + 9 * (5 + 3) + 2 * 2);
        for (String phase : phases.subList(1, phases.size())) {
            String[] columns = phase.split(",", -1);
            assertThat(Double.parseDouble(columns[9])).as("calls per second over %s", phase).isPositive();
            assertThat(Long.parseLong(columns[11])).as("errors in %s", phase).isZero();
        }
        // The caller count the worker ran is the plan's, phase by phase.
        assertThat(phases.subList(1, phases.size()).stream().filter(line -> line.contains(",callers,")).map(line -> line.split(",")[3])
                .distinct())
                .containsExactly("1", "8", "50", "200", "4");
        // The adaptive target reports what it ran in every window.
        assertThat(Files.readAllLines(out.resolve("timeline.csv"), StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("ours-adaptive-jedis")).map(line -> line.substring(line.lastIndexOf(',') + 1)))
                .isNotEmpty().allSatisfy(strategy -> assertThat(strategy).matches("SINGLE|MULTI\\(\\d+\\)|POOLED\\(\\d+\\)"));
        String report = Files.readString(out.resolve("phases.md"), StandardCharsets.UTF_8);
        assertThat(report).contains("## Redis · caller count", "## Redis · round trip", "÷ our best fixed configuration, whole phase",
                "boot-default ÷ the best peer as users run it, after settling", "Switches per cycle in each phase", "## Redis · surge");
        // A verdict, whatever it is (a busy machine may drop the one cycle): no figure is asserted.
        assertThat(report).containsPattern("Surge goal on [01] kept cycles of 1, \\d+ failed calls: \\*\\*(met|missed|undecided)\\*\\*");
        // The surge's phases keep their own lengths (--quick: 3 s and 5 s) on windows of the production length.
        assertThat(phases.stream().filter(line -> line.contains(",surge,"))).hasSize(4);
        assertThat(Files.readAllLines(out.resolve("timeline.csv"), StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("redis,surge,2,1,boot-default,"))).hasSize(5);
        for (String chart : List.of("redis-callers-timeline.png", "redis-rtt-timeline.png", "redis-surge-timeline.png")) {
            assertThat(readImage(out.resolve(chart)).getWidth()).as(chart).isGreaterThanOrEqualTo(1000);
        }
    }

    /** Runs the packaged benchmark as a user would, and returns its output once it has finished with exit code 0. */
    private static String runJar(Path out, int minutes, String... arguments) throws Exception {
        assertThat(JAR).as("the packaged benchmark (mvn package runs before the integration tests)").exists();
        List<String> command = new java.util.ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
                JAR.toString()));
        command.addAll(List.of(arguments));
        Path log = out.resolve("benchmark.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = process.waitFor(minutes, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(finished).as("%s finishes within %d minutes; its output:%n%s", command, minutes, output).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    private static CellResult cell(List<CellResult> cells, Backend backend, String target) {
        return cells.stream().filter(cell -> cell.workload().backend() == backend && cell.target().equals(target)).findFirst()
                .orElseThrow(() -> new AssertionError("no cell of " + target + " on " + backend.label()));
    }

    /** A target's row of a Markdown table, split at its bars: [0] is empty, [1] the target, then its cells. */
    private static String[] row(String table, String target) {
        return table.lines().filter(line -> line.startsWith("| `" + target + "` |")).findFirst()
                .orElseThrow(() -> new AssertionError("no row of " + target + " in\n" + table)).split("\\|");
    }

    private static BufferedImage readImage(Path file) throws IOException {
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image).as("%s is a PNG", file).isNotNull();
        return image;
    }
}
