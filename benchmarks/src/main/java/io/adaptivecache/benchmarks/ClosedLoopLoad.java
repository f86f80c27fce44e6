package io.adaptivecache.benchmarks;

import java.time.Duration;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.ClosedLoopRunner;
import io.adaptivecache.benchmarks.load.LoadedClient;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;

/**
 * The single comparisons' workload: the harness's {@link ClosedLoopRunner} (80% get / 20% set
 * of 100-byte values over its key space) on one template, after filling the keys through it.
 */
final class ClosedLoopLoad {

    private static final int VALUE_BYTES = 100;

    private ClosedLoopLoad() {
    }

    /**
     * Fills the keys, runs the callers and returns their throughput over the measured window.
     * @param template the template to load (left open)
     * @param backend its server, for the result's label
     * @param threads how many callers
     * @param warmUp time before measuring
     * @param measured the measured window
     * @return calls per second
     */
    static double opsPerSecond(CacheTemplate template, Backend backend, int threads, Duration warmUp, Duration measured) {
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < ClosedLoopRunner.KEYS; i++) {
            template.set(ClosedLoopRunner.key(i), value, Duration.ZERO);
        }
        LoadedClient client = new LoadedClient() {
            @Override
            public byte[] get(String key) {
                return template.get(key);
            }

            @Override
            public void set(String key, byte[] written) {
                template.set(key, written, Duration.ZERO);
            }

            @Override
            public void close() {
                // the caller owns the template
            }
        };
        Workload workload = new Workload(backend, Network.LOOPBACK, VALUE_BYTES, threads);
        return new ClosedLoopRunner(warmUp, measured, Duration.ZERO).run(template.name(), client, workload, 1, value).opsPerSecond();
    }
}
