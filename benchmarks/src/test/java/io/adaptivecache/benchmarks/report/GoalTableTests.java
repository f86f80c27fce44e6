package io.adaptivecache.benchmarks.report;

import java.util.ArrayList;
import java.util.List;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Settling;
import io.adaptivecache.benchmarks.load.Workload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The goal table takes per-round ratios against the round's best denominator, and their median. */
class GoalTableTests {

    @Test
    void ratiosShouldBeMediansOfPerRoundRatiosAgainstTheBestDenominator() {
        List<CellResult> cells = new ArrayList<>();
        double[][] rounds = { { 90, 100, 80 }, { 120, 100, 150 }, { 50, 100, 60 } };
        for (int round = 0; round < rounds.length; round++) {
            cells.add(cell("ours-jedis-pooled-8@nio", round + 1, rounds[round][0]));
            cells.add(cell("jedis-pool-8@nio", round + 1, rounds[round][1]));
            cells.add(cell("jedis-pool-50@nio", round + 1, rounds[round][2]));
        }

        String table = GoalTable.render(cells);

        // Rounds: 90/100, 120/150, 50/100 -> 0.90, 0.80, 0.50; median 0.80.
        assertThat(table).contains("| redis: `ours-jedis-pooled-8@nio / best of jedis-pool-8@nio, jedis-pool-50@nio` | loopback | "
                + "≥ 0.95 at 1 and 8 | 0.80x (0.90, 0.80, 0.50) |");
        assertThat(table).contains("| memcached: `ours-x-multi / xmemcached` | loopback | ≥ 0.9 | – |");
    }

    private static CellResult cell(String target, int round, double opsPerSecond) {
        return new CellResult(target, new Workload(Backend.REDIS, Network.LOOPBACK, 100, 8), round, (long) opsPerSecond, 0,
                opsPerSecond, 100, 200, 300, 0, null, 1.0, 10.0, Settling.FIXED);
    }
}
