package io.adaptivecache.benchmarks.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;

/**
 * Issue #10's goal table, drawn from the {@code cells.csv} of runs that measured its targets:
 * memcached (both drivers, loopback and delayed) and Redis with {@code --transports nio,io_uring}.
 * Each ratio is the median of per-round ratios, with the rounds in brackets; "best of" takes the
 * best denominator of each round.
 *
 * <pre>{@code
 * java -cp benchmarks/target/adaptive-cache-benchmarks.jar io.adaptivecache.benchmarks.report.GoalTable \
 *     memcached-run/cells.csv redis-run/cells.csv
 * }</pre>
 */
public final class GoalTable {

    private static final List<String> JEDIS_POOLS = List.of("jedis-pool-8@nio", "jedis-pool-50@nio");

    /** Every fixed configuration of our Redis template: strategy, transport and POOLED driver. */
    private static final List<String> REDIS_FIXED = List.of("ours-single@nio", "ours-multi@nio", "ours-jedis-pooled-8@nio",
            "ours-single@io_uring", "ours-multi@io_uring", "ours-jedis-pooled-8@io_uring");

    private static final List<String> MEMCACHED_FIXED = List.of("ours-single", "ours-multi", "ours-pooled-8", "ours-x-single",
            "ours-x-multi", "ours-x-pooled-8");

    /** The rows: what is compared, on which network, and the goal the issue sets. */
    static final List<Row> ROWS = List.of(
            new Row(new Comparison("", Backend.REDIS, "ours-jedis-pooled-8@nio", JEDIS_POOLS, ""), Network.LOOPBACK,
                    "≥ 0.95 at 1 and 8"),
            new Row(new Comparison("", Backend.REDIS, "ours-adaptive-jedis@io_uring", JEDIS_POOLS, ""), Network.LOOPBACK,
                    "≥ 0.95 at 1 and 8; ≥ 1.4 at 50 and 200"),
            new Row(new Comparison("", Backend.REDIS, "ours-adaptive@io_uring", JEDIS_POOLS, ""), Network.LOOPBACK,
                    "≥ 1.4 at 50 and 200"),
            new Row(new Comparison("", Backend.REDIS, "ours-single@io_uring", JEDIS_POOLS, ""), Network.LOOPBACK, "≥ 1.4 at 50 and 200"),
            new Row(new Comparison("", Backend.REDIS, "ours-multi@io_uring", JEDIS_POOLS, ""), Network.LOOPBACK, "≥ 1.4 at 50 and 200"),
            new Row(new Comparison("", Backend.REDIS, "ours-adaptive-jedis@io_uring", List.of("lettuce-single@nio"), ""),
                    Network.LOOPBACK, "≥ 1.3 at 50 and 200"),
            new Row(new Comparison("", Backend.REDIS, "ours-adaptive@io_uring", List.of("lettuce-single@nio"), ""), Network.LOOPBACK,
                    "≥ 1.3 at 50 and 200"),
            new Row(new Comparison("", Backend.REDIS, "ours-single@io_uring", List.of("lettuce-single@nio"), ""), Network.LOOPBACK,
                    "≥ 1.3 at 50 and 200"),
            new Row(new Comparison("", Backend.REDIS, "ours-multi@io_uring", List.of("lettuce-single@nio"), ""), Network.LOOPBACK,
                    "≥ 1.3 at 50 and 200"),
            new Row(new Comparison("", Backend.REDIS, "ours-adaptive-jedis@nio", JEDIS_POOLS, ""), Network.LOOPBACK,
                    "(on NIO)"),
            new Row(new Comparison("", Backend.REDIS, "ours-adaptive-jedis@io_uring", REDIS_FIXED, ""), Network.LOOPBACK, "≥ 0.95"),
            new Row(new Comparison("", Backend.REDIS, "ours-adaptive@io_uring", REDIS_FIXED, ""), Network.LOOPBACK,
                    "(adaptive without the Jedis driver)"),
            new Row(new Comparison("", Backend.MEMCACHED, "ours-x-multi", List.of("xmemcached"), ""), Network.LOOPBACK, "≥ 0.9"),
            new Row(new Comparison("", Backend.MEMCACHED, "ours-x-multi", List.of("xmemcached"), ""), Network.DELAYED, "≥ 0.9"),
            new Row(new Comparison("", Backend.MEMCACHED, "ours-x-adaptive", List.of("xmemcached"), ""), Network.LOOPBACK, "≥ 0.9"),
            new Row(new Comparison("", Backend.MEMCACHED, "ours-x-adaptive", List.of("xmemcached"), ""), Network.DELAYED, "≥ 0.9"),
            new Row(new Comparison("", Backend.MEMCACHED, "ours-multi", List.of("xmemcached"), ""), Network.LOOPBACK,
                    "(spymemcached driver)"),
            new Row(new Comparison("", Backend.MEMCACHED, "ours-multi", List.of("xmemcached"), ""), Network.DELAYED,
                    "(spymemcached driver)"),
            new Row(new Comparison("", Backend.MEMCACHED, "ours-x-adaptive", MEMCACHED_FIXED, ""), Network.LOOPBACK, "≥ 0.95"),
            new Row(new Comparison("", Backend.MEMCACHED, "ours-x-adaptive", MEMCACHED_FIXED, ""), Network.DELAYED, "≥ 0.95"));

    private GoalTable() {
    }

    /**
     * Prints the table as Markdown.
     * @param args the {@code cells.csv} files
     * @throws IOException if one cannot be read
     */
    public static void main(String[] args) throws IOException {
        List<CellResult> cells = new ArrayList<>();
        for (String file : args) {
            cells.addAll(CsvLog.read(Path.of(file)));
        }
        System.out.print(render(cells));
    }

    static String render(List<CellResult> cells) {
        ResultSet results = new ResultSet(List.of());
        cells.forEach(results::add);
        List<Integer> threads = cells.stream().map(cell -> cell.workload().threads()).distinct().sorted().toList();
        int valueBytes = cells.isEmpty() ? 100 : cells.get(0).workload().valueBytes();
        StringBuilder out = new StringBuilder("| ratio | network | goal |");
        threads.forEach(count -> out.append(' ').append(count).append(" thr |"));
        out.append("\n|---|---|---|");
        threads.forEach(count -> out.append("---:|"));
        out.append('\n');
        for (Row row : ROWS) {
            out.append("| ").append(row.comparison().backend().name().toLowerCase(Locale.ROOT).replace('_', '-')).append(": `")
                    .append(row.comparison().label()).append("` | ").append(row.network().name().toLowerCase(Locale.ROOT)).append(" | ")
                    .append(row.goal()).append(" |");
            for (int count : threads) {
                Workload workload = new Workload(row.comparison().backend(), row.network(), valueBytes, count);
                Optional<ResultSet.Ratio> ratio = results.ratio(row.comparison(), workload);
                out.append(' ').append(ratio.map(GoalTable::format).orElse("–")).append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String format(ResultSet.Ratio ratio) {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%.2fx (", ratio.median()));
        for (int i = 0; i < ratio.rounds().size(); i++) {
            text.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", ratio.rounds().get(i)));
        }
        return text.append(')').toString();
    }

    /** One row of the table. */
    record Row(Comparison comparison, Network network, String goal) {
    }
}
