package io.adaptivecache.benchmarks.http;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class HttpSliceLogTests {

    @Test
    void aRunsSlicesReadBackAsWritten(@TempDir Path directory) throws Exception {
        List<HttpSlice> slices = List.of(
                new HttpSlice(64, 1, 0, "spring-defaults", 60_123, 12_024.6, 0, 4100, 9800, 61.25, 0, 0.013, 0.002, 0.31, 1.95, "-", 0),
                new HttpSlice(64, 1, 1, "adaptive", 70_001, 14_000.2, 2, 3600, 8700, 52.5, 12, 0.25, 0, 0.3, 1.7, "MULTI(2)", 1));
        try (HttpSliceLog log = new HttpSliceLog(directory)) {
            slices.forEach(log::append);
        }

        assertThat(HttpSliceLog.read(directory.resolve(HttpSliceLog.FILE))).isEqualTo(slices);
    }
}
