package io.adaptivecache.benchmarks.pairs;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.SplittableRandom;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.ClosedLoopRunner;
import io.adaptivecache.benchmarks.load.LoadedClient;
import io.adaptivecache.benchmarks.load.Mix;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.load.PhaseLoad;
import io.adaptivecache.benchmarks.load.StalenessProbe;
import io.adaptivecache.benchmarks.load.Workload;
import io.adaptivecache.benchmarks.targets.BenchTarget;
import io.adaptivecache.benchmarks.targets.Targets;
import io.adaptivecache.redis.RedisTransport;

/**
 * A JVM that holds one target and runs it when told: the verdict harness starts one per target
 * so that every target is warm (JIT, connections, a settled adaptive strategy) and idle while
 * another one runs. It reads one command a line on standard input and answers one line on
 * standard output; its logging goes to standard error.
 *
 * <pre>
 * open HOST PORT BACKEND NETWORK VALUE_BYTES THREADS [MIX]  opens a fresh client  → ok
 * warm WARM_UP_MS SETTLE_MS                            loads it until warm/settled → ok STRATEGY SWITCHES
 * slice RAMP_MS MEASURE_MS                             one measured slice          → slice OPS OPS_PER_S ERRORS MISSES CPU_US_PER_CALL P99_US STRATEGY SWITCHES STALENESS [ERROR]
 *                                                      (STALENESS: a local tier's probe histogram in Base64, or -)
 * close                                                closes the client           → ok
 * phase-open HOST PORT                                 opens a fresh client for a phase run, no caller yet → ok
 * phase CALLERS VALUE_BYTES LENGTH_MS WINDOW_MS        sets the running load and measures it → phase WHOLE_OPS_PER_S SETTLED_OPS_PER_S
 *                                                      ERRORS CPU_US_PER_CALL STRATEGY SWITCHES GC_SHARE TIMELINE EVENTS [ERROR]
 * phase-close                                          stops the callers and closes the client → ok
 * quit                                                 exits
 * </pre>
 */
public final class SliceWorker {

    private SliceWorker() {
    }

    /**
     * Runs the worker.
     * @param args {@code BACKEND TARGET_ID TRANSPORT TIMEOUT_MS WINDOW_MS DWELL_MS TRIAL_MS}
     * @throws Exception if it cannot run
     */
    public static void main(String[] args) throws Exception {
        PrintStream replies = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        // Anything a library prints must not be read as a reply.
        System.setOut(System.err);
        if (System.getProperty("net.spy.log.LoggerImpl") == null) {
            System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SLF4JLogger");
        }
        Backend backend = Backend.valueOf(args[0]);
        String targetId = args[1];
        RedisTransport.select(RedisTransport.of(args[2]));
        Duration timeout = Duration.ofMillis(Long.parseLong(args[3]));
        BenchTarget target = Targets.all(Runtime.getRuntime().availableProcessors(), timeout, Duration.ofMillis(Long.parseLong(args[4])),
                Duration.ofMillis(Long.parseLong(args[5])), Duration.ofMillis(Long.parseLong(args[6]))).stream()
                .filter(candidate -> candidate.backend() == backend && candidate.id().equals(targetId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No target " + targetId + " on " + backend));
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        LoadedClient client = null;
        PhaseLoad phaseLoad = null;
        Workload workload = null;
        byte[] value = null;
        for (String line = commands.readLine(); line != null; line = commands.readLine()) {
            String[] words = line.trim().split(" ");
            try {
                switch (words[0]) {
                    case "open" -> {
                        if (client != null) {
                            client.close();
                        }
                        workload = new Workload(Backend.valueOf(words[3]), Network.valueOf(words[4]), Integer.parseInt(words[5]),
                                Integer.parseInt(words[6]), words.length > 7 ? Mix.of(words[7]) : Mix.MIXED_UNIFORM);
                        value = new byte[workload.valueBytes()];
                        new SplittableRandom(workload.valueBytes()).nextBytes(value);
                        client = target.open(words[1], Integer.parseInt(words[2]), workload.threads());
                        replies.println("ok");
                    }
                    case "warm" -> {
                        CellResult cell = new ClosedLoopRunner(Duration.ofMillis(Long.parseLong(words[1])), Duration.ofMillis(200),
                                Duration.ofMillis(Long.parseLong(words[2]))).run(targetId, client, workload, 0, value);
                        System.gc();
                        replies.println("ok " + strategy(cell) + " " + cell.settling().switches());
                    }
                    case "slice" -> {
                        StalenessProbe probe = client.stalenessProbe();
                        if (probe != null) {
                            probe.start();
                        }
                        CellResult cell;
                        String staleness = Staleness.NONE.encoded();
                        try {
                            cell = new ClosedLoopRunner(Duration.ofMillis(Long.parseLong(words[1])),
                                    Duration.ofMillis(Long.parseLong(words[2])), Duration.ZERO).run(targetId, client, workload, 0, value);
                        }
                        finally {
                            if (probe != null) {
                                staleness = Staleness.of(probe.stop()).encoded();
                            }
                        }
                        // Leave this slice's garbage out of this target's next slice.
                        System.gc();
                        replies.println(String.format(Locale.ROOT, "slice %d %.1f %d %d %.3f %.0f %s %d %s%s", cell.operations(),
                                cell.opsPerSecond(), cell.errors(), cell.misses(), cell.cpuMicrosPerOperation(), cell.p99Micros(),
                                strategy(cell), cell.settling().switches(), staleness,
                                cell.firstError() == null ? "" : " " + cell.firstError().replaceAll("\\s+", "_")));
                    }
                    case "phase-open" -> {
                        closePhase(phaseLoad, client);
                        client = target.open(words[1], Integer.parseInt(words[2]), PhaseLoad.MAX_CALLERS);
                        phaseLoad = new PhaseLoad(client);
                        replies.println("ok");
                    }
                    case "phase" -> {
                        if (phaseLoad == null) {
                            throw new IllegalStateException("phase before phase-open");
                        }
                        phaseLoad.configure(Integer.parseInt(words[1]), Integer.parseInt(words[2]));
                        PhaseLoad.PhaseFigures figures = phaseLoad.measure(Duration.ofMillis(Long.parseLong(words[3])),
                                Duration.ofMillis(Long.parseLong(words[4])));
                        replies.println(phaseReply(figures));
                    }
                    case "phase-close" -> {
                        closePhase(phaseLoad, client);
                        phaseLoad = null;
                        client = null;
                        System.gc();
                        replies.println("ok");
                    }
                    case "close" -> {
                        if (client != null) {
                            client.close();
                            client = null;
                        }
                        replies.println("ok");
                    }
                    case "quit" -> {
                        closePhase(phaseLoad, client);
                        replies.println("ok");
                        System.exit(0);
                    }
                    default -> replies.println("error unknown_command_" + words[0]);
                }
            }
            catch (Exception ex) {
                ex.printStackTrace();
                replies.println("error " + (ex.getClass().getSimpleName() + ":" + ex.getMessage()).replaceAll("\\s+", "_"));
            }
        }
        System.exit(0);
    }

    private static void closePhase(PhaseLoad load, LoadedClient client) {
        if (load != null) {
            load.close();
        }
        if (client != null) {
            client.close();
        }
    }

    /** One line: the figures, then the timeline as {@code rate/strategy} per window and the switches as {@code ms>to>reason}. */
    static String phaseReply(PhaseLoad.PhaseFigures figures) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "phase %.1f %.1f %d %.3f %s %d %.3f ",
                figures.wholeOpsPerSecond(), figures.settledOpsPerSecond(), figures.errors(), figures.cpuMicrosPerCall(),
                figures.strategy().replace(' ', '_'), figures.switches().size(), figures.gcShare()));
        for (int i = 0; i < figures.rates().length; i++) {
            line.append(i == 0 ? "" : ",").append(Math.round(figures.rates()[i])).append('/')
                    .append(figures.strategies()[i].replace(' ', '_'));
        }
        line.append(' ');
        if (figures.switches().isEmpty()) {
            line.append('-');
        }
        for (int i = 0; i < figures.switches().size(); i++) {
            LoadedClient.Switch change = figures.switches().get(i);
            line.append(i == 0 ? "" : ",").append(Duration.between(figures.startedAt(), change.at()).toMillis()).append('>')
                    .append(change.to().replace(' ', '_')).append('>').append(change.reason());
        }
        if (figures.firstError() != null) {
            line.append(' ').append(figures.firstError().replaceAll("\\s+", "_"));
        }
        return line.toString();
    }

    private static String strategy(CellResult cell) {
        String strategy = cell.settling().finalStrategy();
        return strategy == null ? "-" : strategy.replace(' ', '_');
    }
}
