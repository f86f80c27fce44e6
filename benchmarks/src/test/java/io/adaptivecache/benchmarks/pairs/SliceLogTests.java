package io.adaptivecache.benchmarks.pairs;

import java.nio.file.Path;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;
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
}
