package io.adaptivecache.benchmarks.servers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.adaptivecache.devservers.DelayingProxy;

/**
 * A {@link DelayingProxy} in a JVM of its own, so that its threads and CPU are not counted as
 * the client's. It runs on this JVM's class path and exits when this JVM closes its input.
 */
final class ProxyProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final BufferedReader output;

    ProxyProcess(String target, long delayMillis) throws IOException {
        this.process = new ProcessBuilder(ChildJvm.command("256m", DelayingProxy.class, List.of(target, Long.toString(delayMillis))))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        this.output = new BufferedReader(new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8));
        String line = this.output.readLine();
        if (line == null || !line.startsWith("port ")) {
            this.process.destroyForcibly();
            throw new IOException("The delaying proxy for " + target + " did not start (said: " + line + ")");
        }
        this.port = Integer.parseInt(line.substring("port ".length()).trim());
    }

    int port() {
        return this.port;
    }

    /**
     * Changes the delay in each direction for bytes read from now on; open connections stay open.
     * @param millis the delay
     * @throws IOException if the proxy does not confirm
     */
    void delayMillis(long millis) throws IOException {
        OutputStream commands = this.process.getOutputStream();
        commands.write(("delay " + millis + "\n").getBytes(StandardCharsets.UTF_8));
        commands.flush();
        String answer = this.output.readLine();
        if (!"ok".equals(answer)) {
            throw new IOException("The delaying proxy did not confirm a delay of " + millis + " ms (said: " + answer + ")");
        }
    }

    @Override
    public void close() {
        try {
            this.process.getOutputStream().close();
        }
        catch (IOException ex) {
            // It cannot hear its end of input, so it would not exit of itself.
            this.process.destroyForcibly();
            return;
        }
        ChildJvm.awaitExit(this.process, Duration.ofSeconds(5));
    }
}
