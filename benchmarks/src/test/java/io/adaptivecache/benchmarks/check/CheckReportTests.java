package io.adaptivecache.benchmarks.check;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Backend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The report of a check run carries the figures the goal is judged on: violations, reads, faults, staleness, seed, command. */
class CheckReportTests {

    @Test
    void theReportGivesEveryFigureOfTheGoal(@TempDir Path out) throws Exception {
        long ms = 1_000_000;
        List<Op> ops = List.of(Op.write(1, Op.Kind.FLUSH, Op.ALL_KEYS, Op.ABSENT, 0, -ms, 0, true),
                Op.write(1, Op.Kind.SET, 0, 1, 0, 0, ms, true), Op.write(1, Op.Kind.SET, 0, 2, 0, 10 * ms, 11 * ms, true),
                Op.read(0, 0, 1, 500 * ms, 501 * ms, true), Op.read(0, 0, 2, 20 * ms, 21 * ms, true));
        HistoryCheck.Result result = HistoryCheck.check(ops, 300 * ms, List.of("check:k0"), List.of("near-0", "plain-0"), 0);
        Map<FaultDriver.Fault, Integer> faults = new EnumMap<>(FaultDriver.Fault.class);
        for (FaultDriver.Fault fault : FaultDriver.Fault.values()) {
            faults.put(fault, 20 + fault.ordinal());
        }
        CheckRun.Settings settings = CheckRun.Settings.of(Backend.REDIS, 7, Duration.ofMinutes(5), 1_000_000, 20, Duration.ofMinutes(60));
        CheckRun.Outcome outcome = new CheckRun.Outcome(settings, result, faults, 3, 1, Duration.ofSeconds(42), Duration.ofMillis(300),
                "redis-server on loopback");

        Path markdown = CheckReport.write(out, List.of(outcome), "java -jar x.jar --goals near-check --seed 7", Instant.EPOCH);

        String md = Files.readString(markdown, StandardCharsets.UTF_8);
        assertThat(md).contains("| Violations | **1** |", "| Reads checked | 2 |", "| Bound | 300 ms |", "| Faults: swapdb | 24 |",
                "| Faults: kill tracking | 20 |", "- Seed: 7", "--goals near-check --seed 7", "| Targets | not met |",
                "Worst violation: check:k0 read by near-0", "stale by 489.000 ms", "at least 1,000,000 checked reads and 20 faults");
        List<String> csv = Files.readAllLines(out.resolve("near-check.csv"), StandardCharsets.UTF_8);
        assertThat(csv).hasSize(2);
        assertThat(csv.get(0)).startsWith("backend,seed,reads_checked,failed_reads,writes,violations,bound_ms").endsWith("faults_slow_reads");
        assertThat(csv.get(1)).startsWith("Redis,7,2,0,3,1,300,1,489.");
    }
}
