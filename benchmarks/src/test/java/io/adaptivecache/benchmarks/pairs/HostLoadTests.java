package io.adaptivecache.benchmarks.pairs;

import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostLoadTests {

    @Test
    void cpuOfTheBenchmarksOwnProcessesIsNotCountedAsOutside() {
        // 2 s: one core busy all the time (200 ticks), 150 of them ours; another process used 50; 20 ticks stolen.
        HostLoad.Snapshot before = new HostLoad.Snapshot(0, 1_000, 10, 5, Map.of(1L, 100L, 2L, 300L));
        HostLoad.Snapshot after = new HostLoad.Snapshot(2_000_000_000L, 1_200, 30, 25, Map.of(1L, 150L, 2L, 400L, 3L, 0L));
        HostLoad.Share share = after.since(before);
        assertThat(share.ours()).isEqualTo(0.75);
        assertThat(share.outside()).isEqualTo(0.25);
        assertThat(share.steal()).isEqualTo(0.1);
        assertThat(share.irq()).isEqualTo(0.1);
        assertThat(share.disturbance()).isEqualTo(0.35);
    }

    @Test
    void aThreadSpinningInThisJvmShowsAsOursOnThisMachine() {
        // The project runs on Linux (its tests start redis-server and memcached there): /proc must be readable, never skipped.
        assertThat(HostLoad.available()).as("/proc/stat readable on %s", System.getProperty("os.name")).isTrue();
        HostLoad.Snapshot before = HostLoad.take();
        long end = System.nanoTime() + 500_000_000L;
        long spins = 0;
        while (System.nanoTime() < end) {
            spins++;
        }
        HostLoad.Share share = HostLoad.take().since(before);
        assertThat(spins).isPositive();
        // One spinning thread is one core for half a second; allow for a busy machine giving it less.
        assertThat(share.ours()).as("%s", share).isGreaterThan(0.4);
        LockSupport.parkNanos(1);
    }
}
