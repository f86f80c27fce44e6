package io.adaptivecache.benchmarks.load;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClosedLoopRunnerTests {

    @Test
    void clientCpuPerCallCountsTheCallersOwnWork() {
        // Each call spins 20 µs on its caller's thread: CPU per call cannot be far below that.
        LoadedClient spinning = new LoadedClient() {

            @Override
            public byte[] get(String key) {
                long end = System.nanoTime() + 20_000;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                return new byte[1];
            }

            @Override
            public void set(String key, byte[] value) {
                get(key);
            }

            @Override
            public void close() {
            }
        };
        CellResult cell = new ClosedLoopRunner(Duration.ofMillis(100), Duration.ofMillis(300), Duration.ZERO).run("spin", spinning,
                new Workload(Backend.REDIS, Network.LOOPBACK, 100, 1), 1, new byte[100]);
        assertThat(cell.operations()).isPositive();
        // Before the fix the callers had ended before the clock was read, and this came out near 0.3 µs.
        assertThat(cell.cpuMicrosPerOperation()).as("µs of CPU per call").isGreaterThan(12);
    }
}
