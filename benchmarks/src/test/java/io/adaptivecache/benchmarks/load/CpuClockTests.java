package io.adaptivecache.benchmarks.load;

import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CpuClockTests {

    @Test
    void aThreadThatEndsInsideTheWindowDoesNotTakeItsPastCpuTimeWithIt() throws Exception {
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread busy = new Thread(() -> {
            spin(300);
            spun.countDown();
            try {
                release.await();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        busy.start();
        spun.await();
        ClosedLoopRunner.CpuClock before = ClosedLoopRunner.CpuClock.now();
        // The busy thread (300 ms of CPU behind it) ends inside the window, while this one works 100 ms.
        release.countDown();
        busy.join();
        spin(100);
        long nanos = ClosedLoopRunner.CpuClock.now().since(before);
        // Summing live threads at both ends would come out about 200 ms negative; the JDK's ticks are 10 ms.
        assertThat(nanos).isBetween(50_000_000L, 2_000_000_000L);
    }

    private static void spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        long spins = 0;
        while (System.nanoTime() < end) {
            spins++;
        }
        assertThat(spins).isPositive();
    }
}
