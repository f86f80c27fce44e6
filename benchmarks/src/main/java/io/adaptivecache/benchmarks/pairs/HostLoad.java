package io.adaptivecache.benchmarks.pairs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the machine's CPU went during a slice, read from {@code /proc}: the benchmark's own
 * processes (this JVM and everything it started: the target JVMs, the servers, the delaying
 * proxy), everything else ("outside": other tenants' builds and tests, daemons), kernel interrupt
 * work (mostly this benchmark's own loopback traffic) and steal (time the hypervisor gave to
 * other machines). Linux only; elsewhere {@link #available()} is false and nothing is filtered.
 * Public for the end-to-end benchmark ({@code io.adaptivecache.benchmarks.http}), which drops
 * disturbed slices the same way.
 */
public final class HostLoad {

    private static final Path STAT = Path.of("/proc/stat");

    /** USER_HZ: the unit of {@code /proc} CPU times on every Linux architecture this runs on. */
    private static final double TICKS_PER_SECOND = 100;

    private HostLoad() {
    }

    /** @return whether {@code /proc/stat} can be read */
    public static boolean available() {
        return Files.isReadable(STAT);
    }

    /**
     * The counters now.
     * @return a snapshot, or {@code null} where {@code /proc} is missing
     */
    public static Snapshot take() {
        if (!available()) {
            return null;
        }
        try {
            String[] cpu = Files.readAllLines(STAT).get(0).trim().split("\\s+");
            long user = Long.parseLong(cpu[1]) + Long.parseLong(cpu[2]);
            long system = Long.parseLong(cpu[3]);
            long irq = Long.parseLong(cpu[6]) + Long.parseLong(cpu[7]);
            long steal = cpu.length > 8 ? Long.parseLong(cpu[8]) : 0;
            Map<Long, Long> ours = new HashMap<>();
            ProcessHandle self = ProcessHandle.current();
            ours.put(self.pid(), processTicks(self.pid()));
            List<ProcessHandle> children = self.descendants().toList();
            for (ProcessHandle child : children) {
                long ticks = processTicks(child.pid());
                if (ticks >= 0) {
                    ours.put(child.pid(), ticks);
                }
            }
            return new Snapshot(System.nanoTime(), user + system, irq, steal, ours);
        }
        catch (IOException | RuntimeException ex) {
            return null;
        }
    }

    /** utime + stime of a process, in ticks; -1 if it has gone. */
    private static long processTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        }
        catch (IOException | RuntimeException ex) {
            return -1;
        }
    }

    /**
     * The machine's counters at one moment.
     * @param nanos when ({@link System#nanoTime()})
     * @param busyTicks user, nice and system time of every CPU
     * @param irqTicks interrupt and softirq time
     * @param stealTicks steal time
     * @param processTicks CPU time of each of the benchmark's processes
     */
    public record Snapshot(long nanos, long busyTicks, long irqTicks, long stealTicks, Map<Long, Long> processTicks) {

        /**
         * The shares between an earlier snapshot and this one, in cores (1.0 = one CPU busy all the time).
         * @param before the earlier snapshot
         * @return the shares
         */
        public Share since(Snapshot before) {
            double seconds = Math.max(1e-3, (this.nanos - before.nanos) / 1e9);
            long ours = 0;
            for (Map.Entry<Long, Long> entry : this.processTicks.entrySet()) {
                Long earlier = before.processTicks.get(entry.getKey());
                // A process that started during the slice counts from zero; one that ended is lost either way.
                ours += entry.getValue() - (earlier == null ? 0 : earlier);
            }
            double busy = (this.busyTicks - before.busyTicks) / TICKS_PER_SECOND / seconds;
            double oursCores = ours / TICKS_PER_SECOND / seconds;
            return new Share(Math.max(0, busy - oursCores), (this.stealTicks - before.stealTicks) / TICKS_PER_SECOND / seconds,
                    (this.irqTicks - before.irqTicks) / TICKS_PER_SECOND / seconds, oursCores);
        }
    }

    /**
     * Where CPU went during an interval, in cores.
     * @param outside user and system time of processes that are not the benchmark's
     * @param steal time the hypervisor took
     * @param irq interrupt work
     * @param ours the benchmark's processes
     */
    public record Share(double outside, double steal, double irq, double ours) {

        /** Nothing measured. */
        public static final Share UNKNOWN = new Share(0, 0, 0, 0);

        /** @return CPU taken from the benchmark by others: outside processes and steal */
        double disturbance() {
            return this.outside + this.steal;
        }
    }
}
