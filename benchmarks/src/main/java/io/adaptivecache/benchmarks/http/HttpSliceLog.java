package io.adaptivecache.benchmarks.http;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.adaptivecache.benchmarks.report.CsvFile;

/**
 * Every slice of an end-to-end run, one line each in {@code slices.csv}, written as soon as it is
 * measured, so that an interrupted run keeps its figures.
 */
final class HttpSliceLog extends CsvFile {

    /** The file's name in a run's directory. */
    static final String FILE = "slices.csv";

    private static final String HEADER = "connections,cycle,position,app,requests,requests_per_s,errors,p50_us,p99_us,"
            + "app_cpu_us_per_request,loads,outside_cores,steal_cores,irq_cores,ours_cores,strategy,switches";

    /**
     * Creates the file.
     * @param directory the run's directory
     * @throws IOException if it cannot be written
     */
    HttpSliceLog(Path directory) throws IOException {
        super(directory.resolve(FILE), HEADER);
    }

    /**
     * Appends a slice.
     * @param slice the slice
     */
    void append(HttpSlice slice) {
        appendLine(String.format(Locale.ROOT, "%d,%d,%d,%s,%d,%.1f,%d,%.0f,%.0f,%.2f,%d,%.3f,%.3f,%.3f,%.3f,%s,%d%n",
                slice.connections(), slice.cycle(), slice.position(), slice.app(), slice.requests(), slice.requestsPerSecond(),
                slice.errors(), slice.p50Micros(), slice.p99Micros(), slice.appCpuMicrosPerRequest(), slice.loads(),
                slice.outsideCores(), slice.stealCores(), slice.irqCores(), slice.oursCores(), slice.strategy(), slice.switches()));
    }

    /**
     * Reads the slices of a run.
     * @param file a {@code slices.csv} of this kind
     * @return its slices, in order
     * @throws IOException if it cannot be read
     */
    static List<HttpSlice> read(Path file) throws IOException {
        List<HttpSlice> slices = new ArrayList<>();
        for (String line : rows(file)) {
            String[] f = line.split(",");
            slices.add(new HttpSlice(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[3],
                    Long.parseLong(f[4]), Double.parseDouble(f[5]), Long.parseLong(f[6]), Double.parseDouble(f[7]),
                    Double.parseDouble(f[8]), Double.parseDouble(f[9]), Long.parseLong(f[10]), Double.parseDouble(f[11]),
                    Double.parseDouble(f[12]), Double.parseDouble(f[13]), Double.parseDouble(f[14]), f[15], Integer.parseInt(f[16])));
        }
        return slices;
    }
}
