package io.adaptivecache.benchmarks.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.adaptivecache.benchmarks.http.app.Item;
import org.jspecify.annotations.Nullable;

/**
 * The load generator: {@code wrk} (C, epoll, a few threads for hundreds of connections, so that
 * on a 2-core machine the load takes little of the CPU the applications need), one process per
 * run, driven by {@code items.lua}: ids drawn uniformly from the key space, one summary line with
 * wrk's latency percentiles. wrk counts its duration in whole seconds.
 *
 * @param executable wrk
 * @param script {@value #SCRIPT} in the run's directory
 * @param timeout how long one request may take before wrk counts it as a timeout
 * @param cores the machine's processors: wrk gets a thread per core, at most one per connection
 */
record Wrk(Path executable, Path script, Duration timeout, int cores) {

    /** The script's file name, in this package's resources and in a run's directory. */
    static final String SCRIPT = "items.lua";

    /** What a run without wrk says. */
    static final String MISSING = "The end-to-end benchmark drives HTTP with wrk, which is not on the PATH. Install it"
            + " (Debian and Ubuntu: apt-get install wrk; Fedora: dnf install wrk; macOS: brew install wrk) and run again.";

    /**
     * wrk from the PATH, with its script copied into a run's directory (so the run keeps what drove it).
     * @param directory the run's directory
     * @param timeout how long one request may take before wrk counts it as a timeout
     * @return the load generator
     * @throws IllegalStateException with {@link #MISSING} when wrk is not installed
     * @throws IOException if the script cannot be written
     */
    static Wrk locate(Path directory, Duration timeout) throws IOException {
        Path executable = find(System.getenv("PATH")).orElseThrow(() -> new IllegalStateException(MISSING));
        Path script = directory.resolve(SCRIPT);
        try (InputStream in = Wrk.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IOException(SCRIPT + " is missing from the benchmarks jar");
            }
            Files.createDirectories(directory);
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        return new Wrk(executable, script, timeout, Runtime.getRuntime().availableProcessors());
    }

    /**
     * The {@code wrk} executable on a search path.
     * @param path a PATH value, directories separated by the platform's separator
     * @return the executable, or empty
     */
    static Optional<Path> find(@Nullable String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String directory : path.split(java.io.File.pathSeparator)) {
            if (directory.isBlank()) {
                continue;
            }
            Path candidate = Path.of(directory, "wrk");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The command line of one run.
     * @param port the application's port on loopback
     * @param connections keep-alive connections, each with one request in flight (a closed loop)
     * @param duration how long, in whole seconds (at least one)
     * @param seed the ids' seed
     * @return the command
     */
    List<String> command(int port, int connections, Duration duration, long seed) {
        // One thread per core at most, and no more threads than connections (wrk's rule).
        int threads = Math.max(1, Math.min(this.cores, connections));
        return new ArrayList<>(List.of(this.executable.toString(), "-t" + threads, "-c" + connections,
                "-d" + wholeSeconds(duration) + "s", "--timeout", wholeSeconds(this.timeout) + "s", "--latency", "-s",
                this.script.toString(), "http://127.0.0.1:" + port, "--", Integer.toString(Item.KEYS), Long.toString(seed)));
    }

    /**
     * Runs wrk once and reads its summary.
     * @param port the application's port
     * @param connections how many connections
     * @param duration how long (whole seconds)
     * @param seed the ids' seed
     * @return what it measured
     * @throws IOException if wrk fails, does not end in time or writes no summary
     */
    WrkResult run(int port, int connections, Duration duration, long seed) throws IOException {
        List<String> command = command(port, connections, duration, seed);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        });
        long limitSeconds = wholeSeconds(duration) + wholeSeconds(this.timeout) + 30;
        try {
            if (!process.waitFor(limitSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("wrk did not end within " + limitSeconds + " s: " + String.join(" ", command));
            }
            String text = output.get(10, TimeUnit.SECONDS);
            if (process.exitValue() != 0) {
                throw new IOException("wrk exited with " + process.exitValue() + ": " + text.strip());
            }
            return WrkResult.parse(text);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("Interrupted while wrk ran", ex);
        }
        catch (ExecutionException | TimeoutException | IllegalArgumentException ex) {
            throw new IOException("Cannot read wrk's output: " + ex.getMessage(), ex);
        }
    }

    /** @return wrk's version line, for a report */
    String version() {
        try {
            Process process = new ProcessBuilder(this.executable.toString(), "-v").redirectErrorStream(true).start();
            String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(5, TimeUnit.SECONDS);
            return text.lines().findFirst().orElse("(no output)").trim();
        }
        catch (IOException ex) {
            return "(unknown: " + ex.getMessage() + ")";
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /**
     * A duration as wrk takes it: whole seconds, rounded up, at least one.
     * @param duration the duration
     * @return seconds
     */
    static long wholeSeconds(Duration duration) {
        long millis = duration.toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }
}
