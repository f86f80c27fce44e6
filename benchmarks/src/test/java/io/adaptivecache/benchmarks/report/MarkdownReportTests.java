package io.adaptivecache.benchmarks.report;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Settling;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.redis.RedisWrites;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The matrix report's tables: commands per socket write beside the throughput of the clients that count them. */
class MarkdownReportTests {

    private static final Workload REDIS_8 = new Workload(Backend.REDIS, Network.LOOPBACK, 100, 8);

    private static final Workload REDIS_50 = new Workload(Backend.REDIS, Network.LOOPBACK, 100, 50);

    private static final Workload MEMCACHED_8 = new Workload(Backend.MEMCACHED, Network.LOOPBACK, 100, 8);

    @Test
    void redisTablesShowTheMedianCommandsPerWriteOfOurTemplatesAndADashForClientsWithoutTheCounters() {
        ResultSet results = new ResultSet(List.of("ours-multi", "ours-jedis-pooled-8", "sdr-shared"));
        // Two rounds at 8 callers: 4 and 3 commands per write, median 3.5; at 50 callers 12.
        results.add(cell("ours-multi", REDIS_8, 1, new RedisWrites(4_000, 1_000)));
        results.add(cell("ours-multi", REDIS_8, 2, new RedisWrites(3_000, 1_000)));
        results.add(cell("ours-multi", REDIS_50, 1, new RedisWrites(12_000, 1_000)));
        // Counted, but its calls went over Jedis's own connections: nothing written through the counters in the window.
        results.add(cell("ours-jedis-pooled-8", REDIS_8, 1, new RedisWrites(0, 0)));
        results.add(cell("sdr-shared", REDIS_8, 1, null));
        results.add(cell("sdr-shared", REDIS_50, 1, null));
        MarkdownReport report = new MarkdownReport(results, List.of(), Map.of());

        String table = report.table(REDIS_8.group());

        assertThat(table.lines().findFirst().orElseThrow())
                .isEqualTo("| target | 8 thr ops/s | 50 thr ops/s | 8 thr cmds/write | 50 thr cmds/write | 8 thr p99 | 50 thr p99 |");
        assertThat(columns(table, "ours-multi")).containsExactly("`ours-multi`", "10.0k ±0%", "10.0k", "3.50", "12.00", "1.00 ms",
                "1.00 ms");
        assertThat(columns(table, "ours-jedis-pooled-8")).containsExactly("`ours-jedis-pooled-8`", "10.0k", "–", "–", "–", "1.00 ms",
                "–");
        assertThat(columns(table, "sdr-shared")).containsExactly("`sdr-shared`", "10.0k", "10.0k", "–", "–", "1.00 ms", "1.00 ms");
        assertThat(report.details()).contains("| cmds/write |", "| `ours-multi` | 50 | 10,000 | 10,000–10,000 | 0.50 ms | 1.00 ms |"
                + " 2.00 ms | 0 | 0.50 | 20.0 | 12.00 |", "| `sdr-shared` | 50 | 10,000 | 10,000–10,000 | 0.50 ms | 1.00 ms | 2.00 ms |"
                + " 0 | 0.50 | 20.0 | – |");
        assertThat(report.summary(Path.of("."), Map.of())).contains("| 8 thr cmds/write |");
    }

    @Test
    void aGroupWithoutCountersKeepsItsTableAsItWas() {
        ResultSet results = new ResultSet(List.of("ours-multi", "spy-array"));
        results.add(cell("ours-multi", MEMCACHED_8, 1, null));
        results.add(cell("spy-array", MEMCACHED_8, 1, null));

        String table = new MarkdownReport(results, List.of(), Map.of()).table(MEMCACHED_8.group());

        assertThat(table.lines().findFirst().orElseThrow()).isEqualTo("| target | 8 thr ops/s | 8 thr p99 |");
        assertThat(table).doesNotContain("cmds/write");
        assertThat(columns(table, "spy-array")).containsExactly("`spy-array`", "10.0k", "1.00 ms");
    }

    private static CellResult cell(String target, Workload workload, int round, RedisWrites writes) {
        return new CellResult(target, workload, round, 10_000, 0, 10_000, 500, 1_000, 2_000, 0, null, 0.5, 20.0, Settling.FIXED,
                writes);
    }

    /** A target's row, cell by cell, trimmed. */
    private static List<String> columns(String table, String target) {
        String row = table.lines().filter(line -> line.startsWith("| `" + target + "` |")).findFirst().orElseThrow();
        return Arrays.stream(row.substring(1, row.length() - 1).split("\\|")).map(String::trim).toList();
    }
}
