package io.adaptivecache.benchmarks.report;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Settling;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.redis.RedisWrites;

/** Every cell of every round, one line each, written as soon as it is measured so that an interrupted run keeps its figures. */
public final class CsvLog extends CsvFile {

    /**
     * Creates {@code cells.csv} in a directory.
     * @param directory where to write
     * @throws IOException if the file cannot be created
     */
    public CsvLog(Path directory) throws IOException {
        super(directory.resolve("cells.csv"), "round,backend,network,value_bytes,threads,target,operations,ops_per_s,p50_us,p99_us,p999_us,errors,"
                + "cpu_cores,cpu_us_per_op,switches,last_switch_after_ms,settled,final_strategy,first_error,redis_commands,redis_socket_writes");
    }

    /**
     * Appends a cell.
     * @param cell the cell
     */
    public void append(CellResult cell) {
        // The Redis counters last and empty for a client without them, so that a file written before they existed reads alike.
        appendLine(String.format(Locale.ROOT, "%d,%s,%s,%d,%d,%s,%d,%.1f,%.0f,%.0f,%.0f,%d,%.3f,%.2f,%d,%d,%s,%s,%s,%s,%s%n",
                    cell.round(), cell.workload().backend().name().toLowerCase(Locale.ROOT),
                    cell.workload().network().name().toLowerCase(Locale.ROOT), cell.workload().valueBytes(), cell.workload().threads(),
                    cell.target(), cell.operations(), cell.opsPerSecond(), cell.p50Micros(), cell.p99Micros(), cell.p999Micros(),
                    cell.errors(), cell.cpuCores(), cell.cpuMicrosPerOperation(), cell.settling().switches(),
                    cell.settling().lastSwitchAfter().toMillis(), cell.settling().settled(), quote(cell.settling().finalStrategy()),
                    quote(cell.firstError()), cell.redisWrites() == null ? "" : cell.redisWrites().commands(),
                    cell.redisWrites() == null ? "" : cell.redisWrites().writes()));
    }

    /**
     * Reads the cells a run wrote.
     * @param file a {@code cells.csv}
     * @return its cells, in order
     * @throws IOException if it cannot be read
     */
    public static List<CellResult> read(Path file) throws IOException {
        List<CellResult> cells = new ArrayList<>();
        for (String line : rows(file)) {
            List<String> f = fields(line);
            Workload workload = new Workload(Backend.valueOf(f.get(1).toUpperCase(Locale.ROOT)),
                    Network.valueOf(f.get(2).toUpperCase(Locale.ROOT)), Integer.parseInt(f.get(3)), Integer.parseInt(f.get(4)));
            Settling settling = new Settling(Integer.parseInt(f.get(14)), Duration.ofMillis(Long.parseLong(f.get(15))),
                    Boolean.parseBoolean(f.get(16)), f.get(17).isEmpty() ? null : f.get(17));
            cells.add(new CellResult(f.get(5), workload, Integer.parseInt(f.get(0)), Long.parseLong(f.get(6)), 0,
                    Double.parseDouble(f.get(7)), Double.parseDouble(f.get(8)), Double.parseDouble(f.get(9)),
                    Double.parseDouble(f.get(10)), Long.parseLong(f.get(11)), f.get(18).isEmpty() ? null : f.get(18),
                    Double.parseDouble(f.get(12)), Double.parseDouble(f.get(13)), settling,
                    f.size() > 20 && !f.get(19).isEmpty() ? new RedisWrites(Long.parseLong(f.get(19)), Long.parseLong(f.get(20))) : null));
        }
        return cells;
    }

    /** One line's fields; a quoted field may hold commas and doubled quotes. */
    private static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                }
                else if (c == '"') {
                    quoted = false;
                }
                else {
                    field.append(c);
                }
            }
            else if (c == '"') {
                quoted = true;
            }
            else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            }
            else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }

    private static String quote(String text) {
        return text == null ? "" : '"' + text.replace("\"", "\"\"").replace("\n", " ") + '"';
    }
}
