package io.adaptivecache.integration;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The sample's executable jar, as sample-app's package phase leaves it (processed ahead of time,
 * then repackaged), run with {@code java -jar} in a JVM of its own on a free loopback port: waited
 * for until {@code /actuator/health} is UP (failing with the end of its output if it exits or
 * takes too long), stopped with SIGTERM, and on close stopped for good with every process it
 * started. Its output goes to a temporary file, deleted on close.
 */
final class SampleJar implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final int port;
    private final List<ProcessHandle> children = new ArrayList<>();

    private SampleJar(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts the jar.
     * @param jvmOptions options before {@code -jar}, such as {@code -Dspring.aot.enabled=true}
     * @param arguments the application's arguments (its server port and address are added)
     */
    static SampleJar start(List<String> jvmOptions, List<String> arguments) throws IOException {
        Path jar = jar();
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1"));
        command.addAll(arguments);
        Path log = Files.createTempFile("sample-jar-", ".log");
        return new SampleJar(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start(), log, port);
    }

    /** The executable jar the build packaged, which must exist. */
    static Path jar() {
        Path jar = Path.of(System.getProperty("sample.executable-jar", "target/missing-sample.executable-jar-property.jar"));
        assertThat(jar).as("the sample's executable jar (sample-app's package phase: process-aot, then repackage)").isRegularFile();
        return jar;
    }

    /** The path of a request to the sample, as a URI on its loopback port. */
    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + this.port + path);
    }

    /**
     * Waits until the sample reports UP, and notes the processes it has started by then (its own
     * servers) so that {@link #close()} stops them too.
     * @param within the longest wait
     * @return the health document
     */
    JsonNode awaitUp(Duration within) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(uri("/actuator/health")).timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = System.nanoTime() + within.toNanos();
        String lastBody = null;
        while (System.nanoTime() - deadline < 0) {
            if (!this.process.isAlive()) {
                fail("java -jar exited with %d before answering; output:%n%s", this.process.exitValue(), tail());
            }
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                lastBody = response.body();
                JsonNode health = JsonMapper.builder().build().readTree(lastBody);
                if (response.statusCode() == 200 && "UP".equals(health.path("status").asString())) {
                    this.process.descendants().forEach(this.children::add);
                    return health;
                }
            }
            catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        return fail("/actuator/health was not UP within %s (last answer: %s); output:%n%s", within, lastBody, tail());
    }

    /** The processes the sample had started when it came UP. */
    List<ProcessHandle> children() {
        return List.copyOf(this.children);
    }

    /**
     * Sends SIGTERM (Boot's graceful shutdown) and waits.
     * @return whether the JVM ended within the wait
     */
    boolean stop(Duration within) throws InterruptedException {
        this.process.destroy();
        return this.process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Everything the sample wrote so far. */
    String output() throws IOException {
        return Files.readString(this.log, StandardCharsets.UTF_8);
    }

    /** The end of the sample's output, for failure messages. */
    String tail() {
        try {
            String text = output();
            return text.length() > 6000 ? text.substring(text.length() - 6000) : text;
        }
        catch (IOException ex) {
            return "(no output: " + ex + ")";
        }
    }

    @Override
    public void close() throws Exception {
        if (!stop(Duration.ofSeconds(30))) {
            this.process.destroyForcibly();
            this.process.waitFor(10, TimeUnit.SECONDS);
        }
        this.process.descendants().forEach(ProcessHandle::destroyForcibly);
        this.children.forEach(ProcessHandle::destroyForcibly);
        Files.deleteIfExists(this.log);
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
