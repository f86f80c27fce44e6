package io.adaptivecache.benchmarks.report;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Settling;
import io.adaptivecache.benchmarks.load.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The cells a child JVM writes come back whole to the run that merges them. */
class CsvLogTests {

    @TempDir
    Path directory;

    @Test
    void cellsShouldReadBackAsWritten() throws Exception {
        CellResult adaptive = new CellResult("ours-adaptive@io_uring", new Workload(Backend.REDIS, Network.DELAYED, 100, 50), 2,
                123_456, 0, 61_728.4, 512, 2_048, 4_096, 3, "CacheTimeoutException: \"slow\", then, commas", 1.25, 20.5,
                new Settling(2, Duration.ofMillis(6_500), true, "MULTI(2, ROUND_ROBIN)"));
        CellResult fixed = new CellResult("jedis-pool-8@nio", new Workload(Backend.REDIS_CLUSTER, Network.LOOPBACK, 102_400, 1), 1,
                9_000, 0, 4_500.0, 200, 300, 400, 0, null, 0.5, 111.0, Settling.FIXED);
        try (CsvLog log = new CsvLog(this.directory)) {
            log.append(adaptive);
            log.append(fixed);
        }

        List<CellResult> read = CsvLog.read(this.directory.resolve("cells.csv"));

        assertThat(read).hasSize(2);
        assertThat(read.get(0).target()).isEqualTo("ours-adaptive@io_uring");
        assertThat(read.get(0).workload()).isEqualTo(adaptive.workload());
        assertThat(read.get(0).round()).isEqualTo(2);
        assertThat(read.get(0).opsPerSecond()).isCloseTo(61_728.4, within(0.05));
        assertThat(read.get(0).firstError()).isEqualTo(adaptive.firstError());
        assertThat(read.get(0).settling()).isEqualTo(adaptive.settling());
        assertThat(read.get(0).cpuMicrosPerOperation()).isCloseTo(20.5, within(0.01));
        assertThat(read.get(1).workload()).isEqualTo(fixed.workload());
        assertThat(read.get(1).firstError()).isNull();
        assertThat(read.get(1).settling()).isEqualTo(Settling.FIXED);
    }
}
