package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.Mix;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.benchmarks.report.CsvFile;

/**
 * Every slice of a verdict run, one line each in {@code slices.csv}, written as soon as it is
 * measured: an interrupted run keeps its figures, and {@link GoalTable} recomputes every
 * verdict from the file.
 */
public final class SliceLog extends CsvFile {

    /** The file's name in a run's directory. */
    public static final String FILE = "slices.csv";

    private static final String HEADER = "backend,network,value_bytes,threads,cycle,position,target,operations,ops_per_s,errors,"
            + "cpu_us_per_call,p99_us,outside_cores,steal_cores,irq_cores,ours_cores,strategy,switches,mix,staleness";

    /**
     * Creates the file.
     * @param directory the run's directory
     * @throws IOException if it cannot be written
     */
    public SliceLog(Path directory) throws IOException {
        super(directory.resolve(FILE), HEADER);
    }

    /**
     * Appends a slice.
     * @param slice the slice
     */
    public void append(Slice slice) {
        Workload workload = slice.workload();
        appendLine(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%s,%d,%.1f,%d,%.3f,%.0f,%.3f,%.3f,%.3f,%.3f,%s,%d,%s,%s%n",
                    workload.backend().name().toLowerCase(Locale.ROOT), workload.network().name().toLowerCase(Locale.ROOT),
                    workload.valueBytes(), workload.threads(), slice.cycle(), slice.position(), slice.target(), slice.operations(),
                    slice.opsPerSecond(), slice.errors(), slice.cpuMicrosPerCall(), slice.p99Micros(), slice.outsideCores(),
                    slice.stealCores(), slice.irqCores(), slice.oursCores(), slice.strategy(), slice.switches(),
                    workload.mix().slug(), slice.staleness().encoded()));
    }

    /**
     * Reads the slices of a run.
     * @param file a {@code slices.csv}
     * @return its slices, in order
     * @throws IOException if it cannot be read
     */
    public static List<Slice> read(Path file) throws IOException {
        List<Slice> slices = new ArrayList<>();
        for (String line : rows(file)) {
            String[] f = line.split(",");
            // Files written before the mix and staleness columns existed hold the default mix and no staleness.
            Mix mix = f.length > 18 ? Mix.of(f[18]) : Mix.MIXED_UNIFORM;
            Staleness staleness = f.length > 19 ? new Staleness(f[19]) : Staleness.NONE;
            Workload workload = new Workload(Backend.valueOf(f[0].toUpperCase(Locale.ROOT)), Network.valueOf(f[1].toUpperCase(Locale.ROOT)),
                    Integer.parseInt(f[2]), Integer.parseInt(f[3]), mix);
            slices.add(new Slice(workload, Integer.parseInt(f[4]), Integer.parseInt(f[5]), f[6], Long.parseLong(f[7]),
                    Double.parseDouble(f[8]), Long.parseLong(f[9]), Double.parseDouble(f[10]), Double.parseDouble(f[11]),
                    Double.parseDouble(f[12]), Double.parseDouble(f[13]), Double.parseDouble(f[14]), Double.parseDouble(f[15]), f[16],
                    Integer.parseInt(f[17]), staleness));
        }
        return slices;
    }
}
