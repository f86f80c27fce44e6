package io.adaptivecache.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

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

    /** The caller counts every comparison runs at. */
    static final int[] THREAD_COUNTS = {1, 8, 50, 200};

    /** Interleaved rounds per comparison; the table reports the median ratio over them. */
    static final int ROUNDS = 3;

    /** Time before measuring each cell. */
    static final Duration WARM_UP = Duration.ofSeconds(1);

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

    /**
     * Prints a comparison's table: per cell, the median ratio over the rounds, then every round's.
     * @param cellColumn the first column's title, such as {@code threads}
     * @param cellAlignment its Markdown alignment, such as {@code ---:}
     * @param ratio what the ratio divides, such as {@code binary / text}
     * @param ratios each cell's ratios, one per round, in the table's order
     * @param <K> the cell
     */
    static <K> void printRatios(String cellColumn, String cellAlignment, String ratio, Map<K, List<Double>> ratios) {
        System.out.println();
        System.out.println("| " + cellColumn + " | " + ratio + ", median of " + ROUNDS + " | all rounds |");
        System.out.println("|" + cellAlignment + "|---:|---|");
        ratios.forEach((cell, values) -> {
            List<Double> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            System.out.printf("| %s | %.2fx | %s |%n", cell.toString().trim(), sorted.get(sorted.size() / 2),
                    sorted.stream().map(value -> String.format("%.2f", value)).toList());
        });
    }
}
