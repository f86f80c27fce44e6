package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Every phase of a phase run as soon as it is measured: {@code phases.csv} (one line per phase,
 * with its switches) and {@code timeline.csv} (one line per window), so that an interrupted run
 * keeps its figures and a reader can redraw any timeline.
 */
final class PhaseLog implements AutoCloseable {

    /** The phases' file. */
    static final String PHASES = "phases.csv";

    /** The windows' file. */
    static final String TIMELINE = "timeline.csv";

    private final Writer phases;
    private final Writer timeline;

    PhaseLog(Path directory) throws IOException {
        this.phases = Files.newBufferedWriter(directory.resolve(PHASES), StandardCharsets.UTF_8);
        this.timeline = Files.newBufferedWriter(directory.resolve(TIMELINE), StandardCharsets.UTF_8);
        this.phases.write("backend,sequence,phase,callers,value_bytes,network,cycle,position,target,whole_ops_per_s,settled_ops_per_s,"
                + "errors,cpu_us_per_call,gc_share,outside_cores,steal_cores,strategy,switches,last_switch_ms,switch_events\n");
        this.timeline.write("backend,sequence,phase,cycle,target,window,ops_per_s,strategy\n");
        this.phases.flush();
        this.timeline.flush();
    }

    synchronized void append(PhaseSlice slice) {
        try {
            String backend = slice.backend().name().toLowerCase(Locale.ROOT);
            String events = slice.switches().stream().map(change -> change.atMillis() + "ms>" + change.to() + ">" + change.reason())
                    .collect(Collectors.joining(" "));
            this.phases.write(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%s,%d,%d,%s,%.1f,%.1f,%d,%.3f,%.3f,%.3f,%.3f,%s,%d,%d,%s%n", backend,
                    slice.plan(), slice.phaseIndex() + 1, slice.workload().threads(), slice.workload().valueBytes(),
                    slice.workload().network().name().toLowerCase(Locale.ROOT), slice.cycle(), slice.position(), slice.target(),
                    slice.wholeOpsPerSecond(), slice.settledOpsPerSecond(), slice.errors(), slice.cpuMicrosPerCall(),
                    slice.gcShare(), slice.outsideCores(), slice.stealCores(), slice.strategy(), slice.switches().size(),
                    slice.lastSwitchMillis(), events));
            for (int i = 0; i < slice.rates().length; i++) {
                this.timeline.write(String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%d,%.0f,%s%n", backend, slice.plan(), slice.phaseIndex() + 1,
                        slice.cycle(), slice.target(), i, slice.rates()[i], slice.strategies()[i]));
            }
            this.phases.flush();
            this.timeline.flush();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close() throws IOException {
        this.phases.close();
        this.timeline.close();
    }
}
