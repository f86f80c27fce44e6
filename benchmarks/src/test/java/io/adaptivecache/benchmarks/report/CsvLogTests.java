package io.adaptivecache.benchmarks.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Settling;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.redis.RedisWrites;
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
                new Settling(2, Duration.ofMillis(6_500), true, "MULTI(2, ROUND_ROBIN)"), new RedisWrites(370_368, 92_592));
        CellResult fixed = new CellResult("jedis-pool-8@nio", new Workload(Backend.REDIS_CLUSTER, Network.LOOPBACK, 102_400, 1), 1,
                9_000, 0, 4_500.0, 200, 300, 400, 0, null, 0.5, 111.0, Settling.FIXED, null);
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
        assertThat(read.get(0).redisWrites()).isEqualTo(new RedisWrites(370_368, 92_592));
        assertThat(read.get(1).redisWrites()).as("a client without the counters").isNull();
    }

    @Test
    void aFileWrittenBeforeTheRedisCountersReadsWithoutThem() throws Exception {
        Path file = this.directory.resolve("cells.csv");
        Files.writeString(file, "round,backend,network,value_bytes,threads,target,operations,ops_per_s,p50_us,p99_us,p999_us,errors,"
                + "cpu_cores,cpu_us_per_op,switches,last_switch_after_ms,settled,final_strategy,first_error\n"
                + "1,redis,loopback,100,8,ours-multi,1000,2000.0,100,200,300,0,0.500,20.00,0,0,true,,\n");

        List<CellResult> read = CsvLog.read(file);

        assertThat(read).singleElement().satisfies(cell -> {
            assertThat(cell.target()).isEqualTo("ours-multi");
            assertThat(cell.redisWrites()).isNull();
            assertThat(cell.commandsPerWrite()).isNaN();
        });
    }
}
