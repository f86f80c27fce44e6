package io.adaptivecache.benchmarks.load;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import io.adaptivecache.redis.RedisWrites;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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

    @Test
    void commandsPerWriteAreCountedOverTheMeasuredWindowOnly() {
        CountingClient client = new CountingClient();
        CellResult cell = new ClosedLoopRunner(Duration.ofMillis(200), Duration.ofMillis(200), Duration.ZERO).run("counting", client,
                new Workload(Backend.REDIS, Network.LOOPBACK, 100, 1), 1, new byte[100]);

        assertThat(cell.redisWrites()).isNotNull();
        assertThat(cell.redisWrites().commands()).as("commands in the window").isPositive()
                .as("fewer than all the calls, warm-up included").isLessThan(client.commands.get());
        // Since the client's start the ratio would be near 0 (the billion writes before the load); over warm-up and window, below 2.
        assertThat(cell.commandsPerWrite()).isCloseTo(4.0, within(0.1));
    }

    @Test
    void aClientWithoutCountersHasNoCommandsPerWrite() {
        LoadedClient plain = new LoadedClient() {

            @Override
            public byte[] get(String key) {
                return new byte[1];
            }

            @Override
            public void set(String key, byte[] value) {
            }

            @Override
            public void close() {
            }
        };
        CellResult cell = new ClosedLoopRunner(Duration.ofMillis(20), Duration.ofMillis(50), Duration.ZERO).run("plain", plain,
                new Workload(Backend.MEMCACHED, Network.LOOPBACK, 100, 1), 1, new byte[100]);

        assertThat(cell.redisWrites()).isNull();
        assertThat(cell.commandsPerWrite()).isNaN();
    }

    /**
     * Counts every call as a command. Before the load it had already written a billion times (a template's earlier
     * life); through the warm-up each command is a write of its own; from settling on, four commands share a write.
     * Only the window's difference gives four.
     */
    private static final class CountingClient implements LoadedClient {

        static final long AT_START = 1_000_000_000;

        final AtomicLong commands = new AtomicLong(0);

        final AtomicLong writes = new AtomicLong(AT_START);

        volatile boolean settled;

        @Override
        public byte[] get(String key) {
            long count = this.commands.incrementAndGet();
            if (!this.settled || count % 4 == 0) {
                this.writes.incrementAndGet();
            }
            return new byte[1];
        }

        @Override
        public void set(String key, byte[] value) {
            get(key);
        }

        @Override
        public Settling settle(long loadStartedNanos, Duration limit) {
            this.settled = true;
            return Settling.FIXED;
        }

        @Override
        public Optional<RedisWrites> redisWrites() {
            return Optional.of(new RedisWrites(this.commands.get(), this.writes.get()));
        }

        @Override
        public void close() {
        }
    }
}
