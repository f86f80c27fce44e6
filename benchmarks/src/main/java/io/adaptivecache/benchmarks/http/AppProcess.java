package io.adaptivecache.benchmarks.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.adaptivecache.benchmarks.http.app.AppVariant;
import io.adaptivecache.benchmarks.http.app.ItemsApplication;
import io.adaptivecache.benchmarks.pairs.GoalSet;
import io.adaptivecache.benchmarks.servers.ChildJvm;

/**
 * The harness's handle on one items application: a JVM of its own, started with a variant and
 * Redis's address, serving on a free loopback port; idle while another application's slice runs.
 * Its logging goes to a file of the run.
 */
final class AppProcess implements AutoCloseable {

    private final String id;
    private final Process process;
    private final int port;
    private final HttpClient http;

    private AppProcess(String id, Process process, int port) {
        this.id = id;
        this.process = process;
        this.port = port;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * Starts an application and waits until it serves.
     * @param id the variant's id, with {@link GoalSet#TWIN} for the A/A control's second JVM
     * @param redisHost Redis's host
     * @param redisPort Redis's port
     * @param heap the JVM's maximum heap, such as {@code 1g}
     * @param log where its output goes
     * @param limit how long it may take to start
     * @return the running application
     * @throws IOException if it does not start in time
     */
    static AppProcess start(String id, String redisHost, int redisPort, String heap, Path log, Duration limit) throws IOException {
        AppVariant variant = AppVariant.of(variantId(id));
        Process process = ChildJvm.start(ChildJvm.command(heap, ItemsApplication.class, List.of("--" + AppVariant.VARIANT_PROPERTY
                + "=" + variant.id(), "--" + AppVariant.HOST_PROPERTY + "=" + redisHost, "--" + AppVariant.PORT_PROPERTY + "=" + redisPort)),
                log);
        CompletableFuture<Integer> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> readReady(process, ready), "items-app-" + id);
        reader.setDaemon(true);
        reader.start();
        try {
            return new AppProcess(id, process, ready.get(limit.toMillis(), TimeUnit.MILLISECONDS));
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("Interrupted while " + id + " started", ex);
        }
        catch (ExecutionException | TimeoutException ex) {
            process.destroyForcibly();
            throw new IOException("The items application " + id + " did not start within " + limit.toSeconds() + " s ("
                    + (ex instanceof ExecutionException ? ex.getCause().getMessage() : "no " + ItemsApplication.READY + " line")
                    + "); its log: " + log.toAbsolutePath() + tail(log), ex);
        }
    }

    /**
     * The variant of an application id.
     * @param id such as {@code spring-defaults#2}
     * @return {@code spring-defaults}
     */
    static String variantId(String id) {
        return id.endsWith(GoalSet.TWIN) ? id.substring(0, id.length() - GoalSet.TWIN.length()) : id;
    }

    private static void readReady(Process process, CompletableFuture<Integer> ready) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.startsWith(ItemsApplication.READY + " ")) {
                    ready.complete(Integer.parseInt(line.substring(ItemsApplication.READY.length() + 1).trim()));
                }
            }
        }
        catch (IOException | RuntimeException ex) {
            ready.completeExceptionally(ex);
        }
        ready.completeExceptionally(new IOException("the JVM exited"));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        }
        catch (IOException ex) {
            return "";
        }
    }

    /** @return the id: the variant's, with {@link GoalSet#TWIN} for a second JVM */
    String id() {
        return this.id;
    }

    /** @return the variant */
    AppVariant variant() {
        return AppVariant.of(variantId(this.id));
    }

    /** @return the port it serves on, on loopback */
    int port() {
        return this.port;
    }

    /** @return the JVM's CPU time so far (user and system) */
    Duration cpuTime() {
        return this.process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /**
     * Reads the application's state.
     * @param gc whether it collects garbage first
     * @return the state
     * @throws IOException if it does not answer
     */
    AppState state(boolean gc) throws IOException {
        return AppState.parse(get("/bench/state?gc=" + gc));
    }

    /**
     * Asks for every item once, a few requests at a time, so that each is cached before the
     * first slice; checks that each answer is the item asked for.
     * @param keys the key space's size
     * @param parallel requests in flight
     * @throws IOException if a request fails or answers another item
     */
    void fill(int keys, int parallel) throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int lane = 0; lane < parallel; lane++) {
                int first = lane;
                done.add(pool.submit(() -> {
                    for (int id = first; id < keys; id += parallel) {
                        String body = get("/items/" + id);
                        if (!body.contains("\"id\":" + id + ",")) {
                            throw new IOException(this.id + " answered /items/" + id + " with " + body);
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> lane : done) {
                lane.get(5, TimeUnit.MINUTES);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while filling " + this.id, ex);
        }
        catch (ExecutionException | TimeoutException ex) {
            throw new IOException("Could not fill the cache of " + this.id + ": " + ex.getMessage(), ex);
        }
        finally {
            pool.shutdownNow();
        }
    }

    private String get(String path) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).timeout(Duration.ofSeconds(30))
                .GET().build();
        try {
            HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException(this.id + " answered " + path + " with status " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while asking " + this.id + " for " + path, ex);
        }
    }

    @Override
    public void close() {
        // SIGTERM: Boot closes the context (and its Redis connections) before the JVM exits.
        this.process.destroy();
        ChildJvm.awaitExit(this.process, Duration.ofSeconds(20));
    }
}
