package io.adaptivecache.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.load.CellResult;
import io.adaptivecache.benchmarks.load.Network;
import io.adaptivecache.benchmarks.report.CsvLog;
import io.adaptivecache.benchmarks.report.ResultSet;
import io.adaptivecache.benchmarks.servers.BenchmarkServers;
import io.adaptivecache.benchmarks.servers.ChildJvm;
import io.adaptivecache.benchmarks.targets.BenchTarget;
import io.adaptivecache.benchmarks.targets.Targets;
import io.adaptivecache.redis.RedisTransport;

/**
 * The transport dimension. Lettuce has one transport per JVM, so each round runs every
 * transport in a JVM of its own (in a rotating order), all against the servers this process
 * started; their cells come back with the transport in the target id ({@code ours-multi@io_uring})
 * and the round they belong to, so that ratios across transports are taken within a round.
 */
final class TransportRuns {

    private static final long CHILD_LIMIT_HOURS = 4;

    private TransportRuns() {
    }

    static Path run(BenchmarkOptions options) throws Exception {
        Files.createDirectories(options.out);
        List<BenchTarget> catalog = Targets.all(Runtime.getRuntime().availableProcessors(), options.timeout, options.adaptiveWindow,
                options.adaptiveDwell, options.adaptiveTrial);
        List<BenchTarget> targets = new ArrayList<>();
        for (RedisTransport transport : options.transports) {
            catalog.stream().filter(target -> options.backends.contains(target.backend()) && options.selects(target.id()))
                    .map(target -> target.withSuffix(suffix(transport))).forEach(targets::add);
        }
        List<Backend> backends = options.backends.stream()
                .filter(backend -> targets.stream().anyMatch(target -> target.backend() == backend)).toList();
        System.out.printf("%d transports x %d rounds, each a JVM of its own; results in %s%n", options.transports.size(),
                options.rounds, options.out);
        Instant started = Instant.now();
        ResultSet resultSet = new ResultSet(targets.stream().map(BenchTarget::id).toList());
        // The children put their own delaying proxies in front of these servers when the run is delayed.
        try (BenchmarkServers servers = new BenchmarkServers(backends, options.addresses, false, 0);
                CsvLog csv = new CsvLog(options.out)) {
            for (int round = 1; round <= options.rounds; round++) {
                for (RedisTransport transport : Benchmarks.rotated(options.transports, round - 1)) {
                    Path directory = options.out.resolve("jvm").resolve(transport.label() + "-round-" + round);
                    runChild(options, servers, backends, transport, round, directory);
                    for (CellResult cell : CsvLog.read(directory.resolve("cells.csv"))) {
                        resultSet.add(cell);
                        csv.append(cell);
                    }
                }
            }
        }
        return Benchmarks.report(options, resultSet, targets, started, Instant.now());
    }

    private static void runChild(BenchmarkOptions options, BenchmarkServers servers, List<Backend> backends,
            RedisTransport transport, int round, Path directory) throws Exception {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java(), "-cp",
                System.getProperty("java.class.path"), Benchmarks.class.getName()));
        command.addAll(options.argumentsWithout("transports", "transport", "rounds", "out", "redis", "memcached", "redis-cluster"));
        command.addAll(List.of("--transport", transport.label(), "--rounds", "1", "--round-number", Integer.toString(round),
                "--target-suffix", suffix(transport), "--out", directory.toString()));
        for (Backend backend : backends) {
            String option = switch (backend) {
                case REDIS -> "--redis";
                case MEMCACHED -> "--memcached";
                case REDIS_CLUSTER -> "--redis-cluster";
            };
            command.addAll(List.of(option, servers.address(backend, Network.LOOPBACK)));
        }
        System.out.println("round " + round + ", " + transport.label() + ": " + String.join(" ", command.subList(3, command.size())));
        Process child = new ProcessBuilder(command).inheritIO().start();
        if (!child.waitFor(CHILD_LIMIT_HOURS, TimeUnit.HOURS)) {
            child.destroyForcibly();
            throw new IllegalStateException("The " + transport.label() + " run of round " + round + " did not end");
        }
        if (child.exitValue() != 0) {
            throw new IllegalStateException("The " + transport.label() + " run of round " + round + " failed (exit "
                    + child.exitValue() + ")");
        }
    }

    private static String suffix(RedisTransport transport) {
        return "@" + transport.label();
    }
}
