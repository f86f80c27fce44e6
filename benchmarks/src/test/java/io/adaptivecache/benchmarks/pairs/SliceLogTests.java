package io.adaptivecache.benchmarks.pairs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Mix;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class SliceLogTests {

    @Test
    void aSliceReadBackIsTheSliceWrittenSoThatVerdictsCanBeRecomputedFromTheFile(@TempDir Path directory) throws Exception {
        Slice slice = new Slice(new Workload(Backend.MEMCACHED, Network.DELAYED, 102_400, 50), 3, 2, "ours-adaptive@io_uring",
                12_345, 41_150.5, 0, 23.125, 1_234, 0.012, 0.003, 0.25, 1.875, "MULTI(2)", 1);
        try (SliceLog log = new SliceLog(directory)) {
            log.append(slice);
        }
        List<Slice> read = SliceLog.read(directory.resolve(SliceLog.FILE));
        assertThat(read).containsExactly(slice);
    }

    @Test
    void aReadHeavySliceKeepsItsMixAndEveryWritesStalenessThroughTheFile(@TempDir Path directory) throws Exception {
        Histogram histogram = new Histogram(3);
        for (long micros = 1; micros <= 300; micros++) {
            histogram.recordValue(micros * 37);
        }
        Slice slice = new Slice(new Workload(Backend.REDIS, Network.LOOPBACK, 100, 8, Mix.READ_HEAVY_ZIPF), 1, 0,
                "ours-near-adaptive-jedis", 500_000, 400_000, 0, 2.5, 80, 0.01, 0, 0.1, 1.9, "POOLED(8)", 2,
                Staleness.of(histogram));
        try (SliceLog log = new SliceLog(directory)) {
            log.append(slice);
        }
        Slice read = SliceLog.read(directory.resolve(SliceLog.FILE)).get(0);
        assertThat(read).isEqualTo(slice);
        assertThat(read.workload().mix()).isEqualTo(Mix.READ_HEAVY_ZIPF);
        assertThat(read.staleness().histogram()).isEqualTo(histogram);
    }

    @Test
    void aFileWrittenBeforeTheMixAndStalenessColumnsReadsAsTheDefaultMixWithoutStaleness(@TempDir Path directory)
            throws Exception {
        Path file = directory.resolve(SliceLog.FILE);
        Files.writeString(file, "backend,network,value_bytes,threads,cycle,position,target,operations,ops_per_s,errors,"
                + "cpu_us_per_call,p99_us,outside_cores,steal_cores,irq_cores,ours_cores,strategy,switches\n"
                + "redis,loopback,100,8,1,0,jedis-pool-8,1000,1000.0,0,10.000,50,0.010,0.000,0.100,1.900,-,0\n");
        Slice read = SliceLog.read(file).get(0);
        assertThat(read.workload().mix()).isEqualTo(Mix.MIXED_UNIFORM);
        assertThat(read.staleness().measured()).isFalse();
    }
}
