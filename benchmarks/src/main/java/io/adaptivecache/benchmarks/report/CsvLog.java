package io.adaptivecache.benchmarks.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import io.adaptivecache.benchmarks.load.CellResult;

/** Every cell of every round, one line each, written as soon as it is measured so that an interrupted run keeps its figures. */
public final class CsvLog implements AutoCloseable {

    private final Writer writer;

    /**
     * Creates {@code cells.csv} in a directory.
     * @param directory where to write
     * @throws IOException if the file cannot be created
     */
    public CsvLog(Path directory) throws IOException {
        this.writer = Files.newBufferedWriter(directory.resolve("cells.csv"), StandardCharsets.UTF_8);
        this.writer.write("round,backend,network,value_bytes,threads,target,operations,ops_per_s,p50_us,p99_us,p999_us,errors,"
                + "cpu_cores,cpu_us_per_op,switches,last_switch_after_ms,settled,final_strategy,first_error\n");
        this.writer.flush();
    }

    /**
     * Appends a cell.
     * @param cell the cell
     */
    public synchronized void append(CellResult cell) {
        try {
            this.writer.write(String.format(Locale.ROOT, "%d,%s,%s,%d,%d,%s,%d,%.1f,%.0f,%.0f,%.0f,%d,%.3f,%.2f,%d,%d,%s,%s,%s%n",
                    cell.round(), cell.workload().backend().name().toLowerCase(Locale.ROOT),
                    cell.workload().network().name().toLowerCase(Locale.ROOT), cell.workload().valueBytes(), cell.workload().threads(),
                    cell.target(), cell.operations(), cell.opsPerSecond(), cell.p50Micros(), cell.p99Micros(), cell.p999Micros(),
                    cell.errors(), cell.cpuCores(), cell.cpuMicrosPerOperation(), cell.settling().switches(),
                    cell.settling().lastSwitchAfter().toMillis(), cell.settling().settled(), quote(cell.settling().finalStrategy()),
                    quote(cell.firstError())));
            this.writer.flush();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static String quote(String text) {
        return text == null ? "" : '"' + text.replace("\"", "\"\"").replace("\n", " ") + '"';
    }

    @Override
    public void close() throws IOException {
        this.writer.close();
    }
}
